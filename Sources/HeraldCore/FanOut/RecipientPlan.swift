import Foundation
import HeraldModels

/// What one recipient of one event gets: the decision, its rows in the delivery log, the unread
/// count it moves and the sessions told in-app; the push of each row to send now goes onto the
/// batch's pushes. Pure: facts in, planned deliveries out.
struct RecipientPlan: Sendable {
    var decision: Decision
    var deliveries: [Delivery] = []
    /// The (user, conversation) whose unread count grows by this event.
    var unreadIncrement: UnreadKey?
    /// The recipient's burst window: opened by an alert, held in by the messages after it.
    var windowChange: WindowChange?

    /// Everything the plan of one recipient is made from, shared by an event's recipients.
    struct Context {
        var event: ResolvedEvent
        var snapshot: AppSnapshot
        var now: Date
        /// When the event's pushes stop being worth delivering.
        var expiresAt: Date
        /// How long messages after an alert are held for a summary (nil: no bursts).
        var burstWindow: TimeInterval? = nil
    }

    static func make(
        _ facts: RecipientFacts,
        counts: [String: Int],
        in context: Context,
        burst window: NoticeWindow? = nil,
        texts: inout TextCache,
        pushes: inout [PreparedPush]
    ) -> RecipientPlan {
        let event = context.event
        let settings = context.snapshot.settings
        let decision = Decider.decide(event, facts, settings: settings, usable: context.snapshot.usable, now: context.now)
        var plan = RecipientPlan(decision: decision)
        // A new message the recipient is told of counts as unread from now on (added to the
        // counts read, not into a copy of them).
        var added = 0
        if case .message(let message) = event.event.body, message.action == .new, !decision.isSkip {
            added = 1
            plan.unreadIncrement = UnreadKey(uid: facts.uid, conversationId: event.conversationId)
        }
        let conversationUnread = counts[event.conversationId].map { $0 + added } ?? (added > 0 ? added : nil)
        // Each row made from the base takes an id of its own: none is made for the base.
        var base = Delivery(
            id: "",
            appId: event.event.appId,
            subject: .event(event.event.id),
            uid: facts.uid,
            target: .none,
            locale: facts.user?.locale,
            badge: settings.badge ? counts.values.reduce(added, +) : nil,
            unread: conversationUnread,
            status: .skipped,
            createdAt: context.now
        )
        base.style = style(for: facts, of: event, settings: settings)
        plan.deliveries = rows(for: decision, base: base, expiresAt: context.expiresAt)
        if let burst = burstChange(for: decision, of: event, uid: facts.uid, window: window, in: context) {
            plan.windowChange = burst
            if case .hold = burst { plan.deliveries = heldRows(plan.deliveries) }
        }
        for index in plan.deliveries.indices where plan.deliveries[index].status == .sending {
            let delivery = plan.deliveries[index]
            let push = context.snapshot.usableSettings(delivery.providerId).flatMap { settings in
                PushBuilder.push(for: delivery, of: event, snapshot: context.snapshot, settings: settings, texts: &texts, now: context.now)
            }
            switch push {
            // Appended where the batch keeps them: a recipient's own array would be copied into the
            // batch's push by push (its delivery and payload, ~20 retains a push).
            case .success(let push): pushes.append(PreparedPush(delivery: delivery, push: push))
            case .failure(let reason):
                plan.deliveries[index].status = .failed
                plan.deliveries[index].reason = reason.description
            }
        }
        return plan
    }

    /// How the recipient's pushes of the event are shaped: a retract for a deleted message;
    /// whether it mentions them (uid,
    /// `mentionsAll` or one of their keywords), and the content mode (theirs over the app's).
    static func style(for facts: RecipientFacts, of event: ResolvedEvent, settings: PushSettings) -> PushStyle {
        var retract = false
        if case .message(let message) = event.event.body { retract = message.action == .deleted }
        return PushStyle(
            kind: retract ? .retract : .notification,
            mentioned: Importance.mentions(event.event, uid: facts.uid, keywords: facts.preferences.keywords ?? []),
            contentMode: facts.preferences.contentMode ?? settings.contentMode
        )
    }

    /// Bursts (`burstWindowSeconds` > 0): a new message pushed to a recipient opens their window
    /// for the conversation; while it is open, the next messages are held for the summary.
    static func burstChange(for decision: Decision, of event: ResolvedEvent, uid: String, window: NoticeWindow?, in context: Context) -> WindowChange?
    {
        guard let seconds = context.burstWindow, case .push = decision, case .message(let message) = event.event.body, message.action == .new
        else { return nil }
        let key = NoticeWindow.Key(uid: uid, conversationId: event.conversationId, kind: .burst)
        if let window, window.isOpen(at: context.now) {
            return .hold(appId: event.event.appId, key: key, eventId: event.event.id, exceptSession: nil, closesAt: window.closesAt)
        }
        return .open(
            NoticeWindow(
                appId: event.event.appId,
                key: key,
                closesAt: context.now.addingTimeInterval(seconds),
                lastEventId: event.event.id,
                collapseId: event.collapseId
            )
        )
    }

    /// A held message's rows: one `held` row in place of its pushes and webhook calls (the
    /// summary goes to them), the in-app row kept.
    static func heldRows(_ rows: [Delivery]) -> [Delivery] {
        guard var held = rows.first(where: { $0.status == .sending }) else { return rows }
        held.target = .none
        held.providerId = nil
        held.platform = nil
        held.route = nil
        held.sessionId = nil
        held.expiresAt = nil
        held.status = .held
        held.reason = "held for the conversation's summary"
        return [held] + rows.filter { $0.status == .inapp }
    }

    /// The delivery log's rows for a decision, each with an id of its own: one skipped row; one
    /// in-app row; or a row per token and per webhook provider, being sent, and an in-app row for
    /// the sessions online.
    static func rows(for decision: Decision, base: Delivery, expiresAt: Date) -> [Delivery] {
        switch decision {
        case .skip(let reason):
            var row = base
            row.id = Identifier.timeOrdered("dlv_")
            row.reason = reason.rawValue
            return [row]
        case .inApp(let sessions):
            return [inAppRow(base, sessions: sessions)]
        case .push(let choices, let webhooks, let sessions):
            var rows = choices.map { choice in
                sending(base, to: .token(choice.token.token), providerId: choice.token.providerId, expiresAt: expiresAt) { row in
                    row.sessionId = choice.token.sessionId
                    row.platform = choice.token.platform
                    row.route = choice.route
                    row.seal(for: choice.token)
                }
            }
            rows += webhooks.map { sending(base, to: .webhook(providerId: $0), providerId: $0, expiresAt: expiresAt) { _ in } }
            if !sessions.isEmpty { rows.append(inAppRow(base, sessions: sessions)) }
            return rows
        }
    }

    static func sending(
        _ base: Delivery,
        to target: DeliveryTarget,
        providerId: String,
        expiresAt: Date,
        _ fill: (inout Delivery) -> Void
    ) -> Delivery {
        var row = base
        row.id = Identifier.timeOrdered("dlv_")
        row.target = target
        row.providerId = providerId
        row.status = .sending
        row.expiresAt = expiresAt
        fill(&row)
        return row
    }

    /// A row saying the recipient was told over their open WebSockets.
    static func inAppRow(_ base: Delivery, sessions: [String]) -> Delivery {
        var row = base
        row.id = Identifier.timeOrdered("dlv_")
        row.target = .inApp
        row.status = .inapp
        row.reason = "online (\(sessions.count) session\(sessions.count == 1 ? "" : "s"))"
        return row
    }
}
