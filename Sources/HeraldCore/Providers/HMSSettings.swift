import Foundation
import HeraldModels

/// A Huawei Push Kit credential: the AppGallery app id and the notification toggle.
public struct HMSSettings: Sendable, Equatable {
    public var appId: String
    public var includeNotificationKey: Bool

    public init(appId: String, includeNotificationKey: Bool = false) {
        self.appId = appId
        self.includeNotificationKey = includeNotificationKey
    }
}
