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
        providers: [String: ProviderCredential],
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
        var rows: [Delivery] = []
        for token in tokens where token.sessionId != exceptSession && token.platform != .fcmWeb && token.kind != .apnsVoIP {
            guard providers[token.providerId]?.isUsable == true else { continue }
            var row = base
            row.id = Identifier.timeOrdered("dlv_")
            row.target = .token(token.token)
            row.providerId = token.providerId
            row.platform = token.platform
            row.sessionId = token.sessionId
            rows.append(row)
        }
        for provider in providers.values.sorted(by: { $0.providerId < $1.providerId }) where provider.kind == .custom && provider.isUsable {
            var row = base
            row.id = Identifier.timeOrdered("dlv_")
            row.target = .webhook(providerId: provider.providerId)
            row.providerId = provider.providerId
            row.route = nil
            rows.append(row)
        }
        return rows
    }

    /// The user's unread total once `conversationId` is read, when the app shows badges.
    static func badge(_ counts: [String: Int], reading conversationId: String, settings: PushSettings) -> Int? {
        guard settings.badge else { return nil }
        return counts.filter { $0.key != conversationId }.values.reduce(0, +)
    }
}
