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
    /// The device's key for encrypted pushes, when it registered one.
    public var encryption: PushEncryptionKeys?

    public init(
        appId: String,
        uid: String,
        sessionId: String,
        providerId: String,
        platform: PushPlatform,
        token: String,
        createdAt: Date,
        lastSeenAt: Date,
        encryption: PushEncryptionKeys? = nil
    ) {
        self.appId = appId
        self.uid = uid
        self.sessionId = sessionId
        self.providerId = providerId
        self.platform = platform
        self.token = token
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.encryption = encryption
    }

    public var kind: PushTokenKind { platform.tokenKind }
}
