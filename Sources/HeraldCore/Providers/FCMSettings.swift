import Foundation
import HeraldModels

/// An FCM credential: what its service-account file says, and the notification toggle.
public struct FCMSettings: Sendable, Equatable {
    public var projectId: String
    public var clientEmail: String
    public var privateKeyId: String?
    public var includeNotificationKey: Bool

    public init(projectId: String, clientEmail: String, privateKeyId: String? = nil, includeNotificationKey: Bool = false) {
        self.projectId = projectId
        self.clientEmail = clientEmail
        self.privateKeyId = privateKeyId
        self.includeNotificationKey = includeNotificationKey
    }
}
