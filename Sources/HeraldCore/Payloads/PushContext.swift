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

    public init(
        event: ResolvedEvent,
        text: RenderedText,
        settings: PushSettings,
        badge: Int? = nil,
        unread: Int? = nil,
        expiresAt: Date? = nil,
        now: Date
    ) {
        self.event = event
        self.now = now
        self.text = text
        self.settings = settings
        self.badge = badge
        self.unread = unread
        self.expiresAt = expiresAt
    }

    var details: JSONObject { NotificationDetails.build(event, text: text, settings: settings, unread: unread) }
    /// Seconds left to live, for FCM's and HMS's TTL.
    var ttlSeconds: Int? { expiresAt.map { max(0, Int($0.timeIntervalSince(now).rounded(.up))) } }
    var sendbird: Bool { settings.payloadFormat == .sendbird && event.event.kind != .call }
    /// The badge, when the app shows one.
    var shownBadge: Int? { settings.badge ? badge : nil }
}
