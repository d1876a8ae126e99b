import Foundation
import HeraldModels

/// A device's push token, registered through one session of one user.
public struct PushToken: Sendable, Equatable {
    public var appId: String
    public var uid: String
    public var sessionId: String
    public var providerId: String
    public var platform: PushPlatform
    public var token: String
    public var createdAt: Date
    /// Updated by every registration of the same token; eviction removes the oldest first.
    public var lastSeenAt: Date

    public init(
        appId: String,
        uid: String,
        sessionId: String,
        providerId: String,
        platform: PushPlatform,
        token: String,
        createdAt: Date,
        lastSeenAt: Date
    ) {
        self.appId = appId
        self.uid = uid
        self.sessionId = sessionId
        self.providerId = providerId
        self.platform = platform
        self.token = token
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }

    public var kind: PushTokenKind { platform.tokenKind }
}
