import Foundation
import HeraldModels

/// A change to push settings: nil leaves a setting as it is.
public struct PushSettingsPatch: Sendable {
    public var enabled: Bool?
    public var maxTokensPerUser: Int?
    public var multiDevicePolicy: String?
    public var onlineGraceSeconds: Int?
    public var badge: Bool?
    public var includeMessageObject: Bool?
    public var payloadFormat: String?
    /// `.some(nil)` removes the custom JSON.
    public var customJSON: JSONObject??
    public var hideMessageText: Bool?
    public var localizationKeys: Bool?
    public var includeConversationUnread: Bool?
    public var chatTTLSeconds: Int?
    public var callTTLSeconds: Int?
    public var defaultPreferences: NotificationPreferences?
    public var retentionDays: Int?
    public var clearOnRead: Bool?
    public var clearCoalesceSeconds: Int?
    public var burstWindowSeconds: Int?
    public var contentMode: String?
    /// Each channel given replaces only itself.
    public var androidChannels: AndroidChannelsPatch?

    /// A change to the Android channels: nil leaves a channel as it is.
    public struct AndroidChannelsPatch: Sendable {
        public var messages: String?
        public var mentions: String?
        public var calls: String?

        public init(messages: String? = nil, mentions: String? = nil, calls: String? = nil) {
            self.messages = messages
            self.mentions = mentions
            self.calls = calls
        }
    }

    public init(enabled: Bool? = nil, maxTokensPerUser: Int? = nil, multiDevicePolicy: String? = nil, onlineGraceSeconds: Int? = nil) {
        self.enabled = enabled
        self.maxTokensPerUser = maxTokensPerUser
        self.multiDevicePolicy = multiDevicePolicy
        self.onlineGraceSeconds = onlineGraceSeconds
    }
}
