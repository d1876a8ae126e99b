import Foundation
import HeraldModels

/// The clear a read sends to the reader's other devices: a silent push to each of their usable
/// tokens — not the reading session's (when the read names it), not web tokens (a browser must
/// show every push it gets), not VoIP tokens (iOS expects a call) — and the envelope to each
/// webhook provider, the badge being the user's unread total after the read. Pure.
enum ClearPlan {
    static func deliveries(
        for read: ReadEvent,
        eventId: String,
        appId: String,
        tokens: [PushToken],
        usable providers: UsableProviders,
        exceptSession: String?,
        badge: Int?,
        now: Date,
        expiresAt: Date,
        status: DeliveryStatus
    ) -> [Delivery] {
        let base = Delivery(
            appId: appId,
            subject: .event(eventId),
            uid: read.uid,
            target: .none,
            route: .background,
            style: PushStyle(kind: .clear),
            badge: badge,
            status: status,
            nextAttemptAt: status == .pending ? now : nil,
            expiresAt: expiresAt,
            createdAt: now
        )
        let cleared = tokens.filter { token in
            token.sessionId != exceptSession && !token.platform.isBrowser && token.kind != .apnsVoIP
                && providers.ids.contains(token.providerId)
        }
        return base.rows(to: cleared, webhooks: providers.webhooks)
    }

    /// The user's unread total once `conversationId` is read, when the app shows badges.
    static func badge(_ counts: [String: Int], reading conversationId: String, settings: PushSettings) -> Int? {
        guard settings.badge else { return nil }
        return counts.filter { $0.key != conversationId }.values.reduce(0, +)
    }
}
