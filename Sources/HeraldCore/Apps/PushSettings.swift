import Foundation
import HeraldModels

/// An app's push settings (`GET/PATCH /v1/push/settings`). `enabled` and `maxTokensPerUser`
/// have columns of their own; the rest is stored as JSON, and a key missing there (an app made
/// before the setting existed) takes its default.
public struct PushSettings: Sendable, Equatable {
    /// CometChat "Enable Push notifications".
    public var enabled: Bool
    /// Sendbird: a user keeps at most this many tokens; the least recently registered goes first.
    public var maxTokensPerUser: Int
    /// Sendbird: push when all devices are offline, or to each offline device.
    public var multiDevicePolicy: MultiDevicePolicy
    /// A session counts as online this long after its socket drops.
    public var onlineGraceSeconds: Int
    /// The badge is the user's unread count (messages pushed or shown in-app since their last read).
    public var badge: Bool
    /// CometChat "Include message object": the message dictionary in every chat payload.
    public var includeMessageObject: Bool
    /// `cometchat` (CometChat) or `sendbird` (Sendbird's `sendbird` object).
    public var payloadFormat: PayloadFormat
    /// CometChat "Custom JSON": added to every payload as `custom`.
    public var customJSON: JSONObject?
    /// Privacy: notifications say "New message" instead of the text.
    public var hideMessageText: Bool
    /// Kandy: `title-loc-key`/`loc-key` and their args in `aps.alert` instead of text.
    public var localizationKeys: Bool
    /// Add the conversation's unread count to chat payloads.
    public var includeConversationUnread: Bool
    /// How long a chat push may wait for a retry before it is dropped.
    public var chatTTLSeconds: Int
    /// How long a call push is worth sending (a ringing call is gone after about a minute).
    public var callTTLSeconds: Int
    /// What users who set nothing get.
    public var defaultPreferences: NotificationPreferences
    /// How long events and their delivery log are kept.
    public var retentionDays: Int
    /// A `read` event clears the conversation's notifications from the reader's other devices.
    public var clearOnRead: Bool
    /// At most one clear per (user, conversation) in this many seconds; the last one wins.
    public var clearCoalesceSeconds: Int
    /// After an alert, further messages of the conversation within this many seconds are held and
    /// summarised in one push that replaces the first ("5 new messages"); 0 is off.
    public var burstWindowSeconds: Int
    /// What chat pushes carry: everything, only ids, or an encrypted notification.
    public var contentMode: ContentMode
    /// The Android notification channel of each kind of push.
    public var androidChannels: AndroidChannels

    public static let maxTokensRange = 1...100
    public static let onlineGraceRange = 0...300
    public static let chatTTLRange = 0...(28 * 86_400)
    public static let callTTLRange = 0...600
    public static let retentionRange = 1...365
    public static let clearCoalesceRange = 0...300
    public static let burstWindowRange = 0...3_600

    public enum PayloadFormat: String, Codable, Sendable, CaseIterable {
        case cometchat
        case sendbird
    }

    public init(
        enabled: Bool = true,
        maxTokensPerUser: Int = 20,
        multiDevicePolicy: MultiDevicePolicy = .allOffline,
        onlineGraceSeconds: Int = 5,
        badge: Bool = true,
        includeMessageObject: Bool = true,
        payloadFormat: PayloadFormat = .cometchat,
        customJSON: JSONObject? = nil,
        hideMessageText: Bool = false,
        localizationKeys: Bool = false,
        includeConversationUnread: Bool = false,
        chatTTLSeconds: Int = 86_400,
        callTTLSeconds: Int = 60,
        defaultPreferences: NotificationPreferences = .init(),
        retentionDays: Int = 7,
        clearOnRead: Bool = true,
        clearCoalesceSeconds: Int = 5,
        burstWindowSeconds: Int = 0,
        contentMode: ContentMode = .full,
        androidChannels: AndroidChannels = .init()
    ) {
        self.enabled = enabled
        self.maxTokensPerUser = maxTokensPerUser
        self.multiDevicePolicy = multiDevicePolicy
        self.onlineGraceSeconds = onlineGraceSeconds
        self.badge = badge
        self.includeMessageObject = includeMessageObject
        self.payloadFormat = payloadFormat
        self.customJSON = customJSON
        self.hideMessageText = hideMessageText
        self.localizationKeys = localizationKeys
        self.includeConversationUnread = includeConversationUnread
        self.chatTTLSeconds = chatTTLSeconds
        self.callTTLSeconds = callTTLSeconds
        self.defaultPreferences = defaultPreferences
        self.retentionDays = retentionDays
        self.clearOnRead = clearOnRead
        self.clearCoalesceSeconds = clearCoalesceSeconds
        self.burstWindowSeconds = burstWindowSeconds
        self.contentMode = contentMode
        self.androidChannels = androidChannels
    }

    /// The settings kept as JSON; nil is "the default".
    public struct Stored: Codable, Sendable, Equatable {
        public var multiDevicePolicy: MultiDevicePolicy?
        public var onlineGraceSeconds: Int?
        public var badge: Bool?
        public var includeMessageObject: Bool?
        public var payloadFormat: PayloadFormat?
        public var customJSON: JSONObject?
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
        public var contentMode: ContentMode?
        public var androidChannels: AndroidChannels?

        public init() {}
    }

    public var stored: Stored {
        var stored = Stored()
        stored.multiDevicePolicy = multiDevicePolicy
        stored.onlineGraceSeconds = onlineGraceSeconds
        stored.badge = badge
        stored.includeMessageObject = includeMessageObject
        stored.payloadFormat = payloadFormat
        stored.customJSON = customJSON
        stored.hideMessageText = hideMessageText
        stored.localizationKeys = localizationKeys
        stored.includeConversationUnread = includeConversationUnread
        stored.chatTTLSeconds = chatTTLSeconds
        stored.callTTLSeconds = callTTLSeconds
        stored.defaultPreferences = defaultPreferences
        stored.retentionDays = retentionDays
        stored.clearOnRead = clearOnRead
        stored.clearCoalesceSeconds = clearCoalesceSeconds
        stored.burstWindowSeconds = burstWindowSeconds
        stored.contentMode = contentMode
        stored.androidChannels = androidChannels
        return stored
    }

    public init(enabled: Bool, maxTokensPerUser: Int, stored: Stored) {
        let d = PushSettings()
        self.init(
            enabled: enabled,
            maxTokensPerUser: maxTokensPerUser,
            multiDevicePolicy: stored.multiDevicePolicy ?? d.multiDevicePolicy,
            onlineGraceSeconds: stored.onlineGraceSeconds ?? d.onlineGraceSeconds,
            badge: stored.badge ?? d.badge,
            includeMessageObject: stored.includeMessageObject ?? d.includeMessageObject,
            payloadFormat: stored.payloadFormat ?? d.payloadFormat,
            customJSON: stored.customJSON,
            hideMessageText: stored.hideMessageText ?? d.hideMessageText,
            localizationKeys: stored.localizationKeys ?? d.localizationKeys,
            includeConversationUnread: stored.includeConversationUnread ?? d.includeConversationUnread,
            chatTTLSeconds: stored.chatTTLSeconds ?? d.chatTTLSeconds,
            callTTLSeconds: stored.callTTLSeconds ?? d.callTTLSeconds,
            defaultPreferences: stored.defaultPreferences ?? d.defaultPreferences,
            retentionDays: stored.retentionDays ?? d.retentionDays,
            clearOnRead: stored.clearOnRead ?? d.clearOnRead,
            clearCoalesceSeconds: stored.clearCoalesceSeconds ?? d.clearCoalesceSeconds,
            burstWindowSeconds: stored.burstWindowSeconds ?? d.burstWindowSeconds,
            contentMode: stored.contentMode ?? d.contentMode,
            androidChannels: stored.androidChannels ?? d.androidChannels
        )
    }
}
