import Foundation

/// Facts read from an FCM service-account file.
public struct ServiceAccountFacts: Sendable, Equatable {
    public var projectId: String
    public var clientEmail: String
    public var privateKeyId: String?

    public init(projectId: String, clientEmail: String, privateKeyId: String?) {
        self.projectId = projectId
        self.clientEmail = clientEmail
        self.privateKeyId = privateKeyId
    }
}
