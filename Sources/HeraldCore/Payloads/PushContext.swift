import Foundation
import HeraldModels

/// Everything a push of an event to one recipient is made of.
public struct PushContext: Sendable {
    public var event: ResolvedEvent
    public var text: RenderedText
    public var settings: PushSettings
    /// The recipient's unread count (the badge), when badges are on.
    public var badge: Int?
    /// The conversation's unread count.
    public var unread: Int?
    public var expiresAt: Date?
    /// The time the push is made (TTLs count from it).
    public var now: Date
    /// What kind of notice, whether it mentions the recipient, the content mode.
    public var style: PushStyle

    public init(
        event: ResolvedEvent,
        text: RenderedText,
        settings: PushSettings,
        badge: Int? = nil,
        unread: Int? = nil,
        expiresAt: Date? = nil,
        now: Date,
        style: PushStyle = .plain
    ) {
        self.event = event
        self.now = now
        self.text = text
        self.settings = settings
        self.badge = badge
        self.unread = unread
        self.expiresAt = expiresAt
        self.style = style
    }

    var details: NotificationDetails { NotificationDetails(event, text: text, settings: settings, unread: unread) }
    /// Seconds left to live, for FCM's and HMS's TTL.
    var ttlSeconds: Int? { expiresAt.map { max(0, Int($0.timeIntervalSince(now).rounded(.up))) } }
    var sendbird: Bool { settings.payloadFormat == .sendbird && event.event.kind != .call }
    /// How far the alert breaks through, and its rank in a summary.
    var importance: (level: APS.InterruptionLevel, relevance: Double) { Importance.level(event, mentioned: style.mentioned) }
    /// The content mode that applies: calls always carry what CallKit needs.
    var contentMode: ContentMode { event.isCall ? .full : style.contentMode }
    /// What the alert replaces: a burst summary the conversation's first alert, otherwise the
    /// event's own collapse id (an edit replaces its message's alert).
    var collapseId: String? { style.kind == .summary ? style.replaces ?? event.collapseId : event.collapseId }
    /// Android's `notification.tag`: the conversation, so that it is one notification.
    var conversationTag: String? { event.conversationId.isEmpty ? nil : event.conversationId }
    /// Android's notification channel for the push: calls, mentions, or messages.
    var androidChannel: String {
        let channels = settings.androidChannels
        return event.isCall ? channels.calls : style.mentioned ? channels.mentions : channels.messages
    }
    /// The badge, when the app shows one.
    var shownBadge: Int? { settings.badge ? badge : nil }
}
