import Foundation
import HeraldModels

/// Herald's own event: a session ended; its devices get a background push saying so (Kandy's
/// silent "gone" notification), so the app can log in again.
public struct SessionEvent: Codable, Sendable, Equatable {
    public struct Device: Codable, Sendable, Equatable {
        public var token: String
        public var providerId: String
        public var platform: PushPlatform
        /// A UnifiedPush device's keys (``PushEncryptionKeys/storedText``), so its notice is sealed.
        public var encryption: String?

        public init(token: String, providerId: String, platform: PushPlatform, encryption: String? = nil) {
            self.token = token
            self.providerId = providerId
            self.platform = platform
            self.encryption = encryption
        }
    }

    public var uid: String
    public var sessionId: String
    /// `revoked`, `logged_out`, `expired`.
    public var reason: String
    public var devices: [Device]

    public init(uid: String, sessionId: String, reason: String, devices: [Device]) {
        self.uid = uid
        self.sessionId = sessionId
        self.reason = reason
        self.devices = devices
    }
}
