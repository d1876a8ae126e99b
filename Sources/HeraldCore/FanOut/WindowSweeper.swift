import Foundation
import HeraldModels

/// Closes notice windows whose time is up (``NoticeWindow``): what a window held goes out as
/// deliveries stored pending and due now — the outbox sends them, retries them and records them
/// like every other push — and the window opens again (so that the next clear or summary waits
/// its turn), or is removed when nothing waited.
public struct WindowSweeper: Sendable {
    let ports: EnginePorts
    let snapshots: AppSnapshots
    let claims: ClaimPolicy

    public init(ports: EnginePorts, snapshots: AppSnapshots, claims: ClaimPolicy) {
        self.ports = ports
        self.snapshots = snapshots
        self.claims = claims
    }

    /// Closes up to `limit` due windows; returns the deliveries they let out.
    @discardableResult
    public func sweep(now: Date, limit: Int = 500) async throws -> Int {
        let claim = claims.claim(at: now)
        let due = try await ports.windows.claimDueWindows(limit: limit, now: now, claim: claim)
        guard !due.isEmpty else { return 0 }
        var closes: [WindowClose] = []
        var deliveries: [Delivery] = []
        for (appId, windows) in Dictionary(grouping: due, by: \.appId) {
            guard let snapshot = try await snapshots.app(appId) else {
                closes += windows.map { WindowClose($0, reopenUntil: nil) }
                continue
            }
            let waiting = windows.filter { $0.held > 0 && $0.lastEventId != nil }
            let uids = Array(Set(waiting.map(\.key.uid)))
            let tokens = uids.isEmpty ? [:] : try await ports.directory.tokens(appId: appId, uids: uids)
            let unread = uids.isEmpty ? [:] : try await ports.unread.unreadCounts(appId: appId, uids: uids)
            // A summary speaks the user's language.
            let summarised = Array(Set(waiting.filter { $0.key.kind == .burst }.map(\.key.uid)))
            let users = summarised.isEmpty ? [:] : try await ports.directory.users(appId: appId, uids: summarised)
            for window in windows {
                let planned = Self.close(
                    window,
                    snapshot: snapshot,
                    tokens: tokens[window.key.uid] ?? [],
                    unread: unread[window.key.uid] ?? [:],
                    locale: users[window.key.uid]?.locale,
                    now: now
                )
                closes.append(planned.close)
                deliveries += planned.deliveries
            }
        }
        try await ports.windows.closeWindows(closes, deliveries: deliveries, claim: claim)
        return deliveries.count
    }

    /// One window's close: its deliveries, and whether it opens again. Pure.
    static func close(
        _ window: NoticeWindow,
        snapshot: AppSnapshot,
        tokens: [PushToken],
        unread: [String: Int],
        locale: String? = nil,
        now: Date
    ) -> (close: WindowClose, deliveries: [Delivery]) {
        let settings = snapshot.settings
        guard window.held > 0, let eventId = window.lastEventId, settings.enabled else { return (WindowClose(window, reopenUntil: nil), []) }
        switch window.key.kind {
        case .clear:
            guard settings.clearOnRead else { return (WindowClose(window, reopenUntil: nil), []) }
            let read = ReadEvent(uid: window.key.uid, conversationId: window.key.conversationId, messageId: nil, readAt: now)
            let rows = ClearPlan.deliveries(
                for: read,
                eventId: eventId,
                appId: window.appId,
                tokens: tokens,
                usable: snapshot.usable,
                exceptSession: window.exceptSession,
                badge: ClearPlan.badge(unread, reading: window.key.conversationId, settings: settings),
                now: now,
                expiresAt: now.addingTimeInterval(TimeInterval(settings.chatTTLSeconds)),
                status: .pending
            )
            let reopen = settings.clearCoalesceSeconds > 0 ? now.addingTimeInterval(TimeInterval(settings.clearCoalesceSeconds)) : nil
            return (WindowClose(window, reopenUntil: reopen), rows)
        case .burst:
            guard settings.burstWindowSeconds > 0 else { return (WindowClose(window, reopenUntil: nil), []) }
            let rows = summaries(of: window, eventId: eventId, snapshot: snapshot, tokens: tokens, unread: unread, locale: locale, now: now)
            return (WindowClose(window, reopenUntil: now.addingTimeInterval(TimeInterval(settings.burstWindowSeconds))), rows)
        }
    }

    /// A burst's summary: an alert to each of the user's devices (as a message's would go: not
    /// VoIP tokens) and webhooks, telling of the last message held, counting every message since
    /// the window opened and replacing the first alert (its collapse id).
    static func summaries(
        of window: NoticeWindow,
        eventId: String,
        snapshot: AppSnapshot,
        tokens: [PushToken],
        unread: [String: Int],
        locale: String?,
        now: Date
    ) -> [Delivery] {
        let settings = snapshot.settings
        let base = Delivery(
            appId: window.appId,
            subject: .event(eventId),
            uid: window.key.uid,
            target: .none,
            route: .alert,
            style: PushStyle(kind: .summary, contentMode: settings.contentMode, count: window.count, replaces: window.collapseId),
            locale: locale,
            badge: settings.badge ? unread.values.reduce(0, +) : nil,
            unread: unread[window.key.conversationId],
            status: .pending,
            nextAttemptAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(settings.chatTTLSeconds)),
            createdAt: now
        )
        let devices = tokens.filter { $0.kind != .apnsVoIP && snapshot.usable.ids.contains($0.providerId) }
        return base.rows(to: devices, webhooks: snapshot.usable.webhooks)
    }
}
