import Foundation
import HeraldModels

extension FanOut {
    /// Decides a batch, app by app: read each event's page of recipients, load the facts about
    /// them, then plan every event of the page.
    func plan(_ batch: [StoredEvent], now: Date) async throws -> FanOutPlan {
        var plan = FanOutPlan()
        // Mostly one app: then its events are the batch itself, not copied into a dictionary.
        if let appId = batch.first?.event.appId, batch.allSatisfy({ $0.event.appId == appId }) {
            try await planApp(appId, events: batch, now: now, into: &plan)
            return plan
        }
        for (appId, events) in Dictionary(grouping: batch, by: \.event.appId) {
            try await planApp(appId, events: events, now: now, into: &plan)
        }
        return plan
    }

    func planApp(_ appId: String, events: [StoredEvent], now: Date, into plan: inout FanOutPlan) async throws {
        let leaseUntil = now.addingTimeInterval(lease)
        guard let snapshot = try await snapshots.app(appId) else {
            // The app is gone: its events end with nobody told.
            plan.steps += events.map {
                FanOutStep(appId: appId, eventId: $0.event.id, fromCursor: $0.cursor, done: true, recipients: 0, leaseUntil: leaseUntil)
            }
            return
        }
        plan.snapshots[appId] = snapshot
        // Events and pages are read in place, by index: `for page in pages` would copy each, its
        // event and all.
        var pages: [RecipientPage] = []
        pages.reserveCapacity(events.count)
        for index in events.indices { pages.append(try await readPage(events[index], appId: appId)) }
        var uniqueRecipients = Set<String>()
        for index in pages.indices { uniqueRecipients.formUnion(pages[index].recipients) }
        let recipients = Array(uniqueRecipients)
        let settings = snapshot.settings
        let windowed = events.contains { stored in
            switch stored.event.body {
            case .read: settings.clearOnRead || settings.burstWindowSeconds > 0
            case .message: settings.burstWindowSeconds > 0
            default: false
            }
        }
        var facts = try await BatchFacts.load(ports: ports, appId: appId, recipients: recipients, events: events, windows: windowed)
        // Batches in flight at the same time see each other's increments and windows.
        ledger.merge(appId: appId, uids: recipients, into: &facts.records)
        if windowed { facts.windows = windowsInFlight.merged(appId: appId, uids: recipients, into: facts.windows) }
        var increments: [UnreadKey] = []
        var texts = TextCache()
        for index in pages.indices {
            let step = planPage(pages[index], facts: &facts, snapshot: snapshot, now: now, leaseUntil: leaseUntil, texts: &texts, into: &plan)
            increments += step.unreadIncrements
            plan.steps.append(consume step)
        }
        ledger.add(appId: appId, increments)
        plan.unreadInFlight.append((appId, increments))
    }

    /// The next page of an event's recipients: the direct ones on the first page, then the
    /// group's members after the cursor (without the one who acted, or anyone told already).
    func readPage(_ stored: StoredEvent, appId: String) async throws -> RecipientPage {
        guard let guid = Recipients.direct(stored.event).membersOf else { return RecipientPage.make(stored, members: nil, pageSize: pageSize) }
        let members = try await ports.groups.members(appId: appId, guid: guid, afterUid: stored.cursor, limit: pageSize + 1)
        return RecipientPage.make(stored, members: members, pageSize: pageSize)
    }

    /// One page of one event: a read resets unread counts; a session's end is a silent push to
    /// each of its devices; anything else is planned recipient by recipient.
    func planPage(
        _ page: RecipientPage,
        facts: inout BatchFacts,
        snapshot: AppSnapshot,
        now: Date,
        leaseUntil: Date,
        texts: inout TextCache,
        into plan: inout FanOutPlan
    ) -> FanOutStep {
        let event = facts.resolve(page.stored.event, app: snapshot.app)
        plan.events[event.event.id] = event
        var step = FanOutStep(
            appId: snapshot.app.id,
            eventId: event.event.id,
            fromCursor: page.stored.cursor,
            cursor: page.cursor,
            done: page.done,
            recipients: page.recipients.count,
            leaseUntil: leaseUntil
        )
        if page.stored.cursor == nil && page.done {
            step.reason = RecipientPage.nobodyReason(page.stored.event, recipients: page.recipients, users: facts.users, groups: facts.groups)
        }
        if !page.done {
            var next = page.stored
            next.cursor = page.cursor
            plan.nextPages.append(next)
        }
        switch event.event.body {
        case .read(let read):
            step.unreadResets = [UnreadKey(uid: read.uid, conversationId: read.conversationId)]
            planRead(read, of: event, facts: &facts, snapshot: snapshot, now: now, step: &step, into: &plan)
        case .session(let session):
            let planned = SessionEndPlan.make(session, event: event, snapshot: snapshot, now: now, texts: &texts)
            step.deliveries = planned.deliveries
            plan.pushes += planned.pushes
        case .matrix(let push):
            let planned = MatrixPlan.make(push, event: event, snapshot: snapshot, now: now, texts: &texts)
            step.deliveries = [planned.delivery]
            step.recipients = 1
            plan.pushes += planned.push.map { [$0] } ?? []
        default:
            planRecipients(page.recipients, of: event, facts: &facts, snapshot: snapshot, now: now, texts: &texts, step: &step, into: &plan)
        }
        return step
    }

    /// A read: a burst held for the conversation is dropped (the user has seen it), and the
    /// reader's other devices are cleared — at once, or when the clear window of the
    /// conversation closes if a clear went out less than `clearCoalesceSeconds` ago (the last read
    /// wins).
    func planRead(
        _ read: ReadEvent,
        of event: ResolvedEvent,
        facts: inout BatchFacts,
        snapshot: AppSnapshot,
        now: Date,
        step: inout FanOutStep,
        into plan: inout FanOutPlan
    ) {
        let appId = snapshot.app.id
        let burst = NoticeWindow.Key(uid: read.uid, conversationId: read.conversationId, kind: .burst)
        if facts.windows.removeValue(forKey: burst) != nil { step.windowChanges.append(.remove(appId: appId, key: burst)) }
        let settings = snapshot.settings
        guard settings.enabled, settings.clearOnRead else { return }
        let key = NoticeWindow.Key(uid: read.uid, conversationId: read.conversationId, kind: .clear)
        if let window = facts.windows[key], window.isOpen(at: now) {
            step.windowChanges.append(
                .hold(appId: appId, key: key, eventId: event.event.id, exceptSession: read.sessionId, closesAt: window.closesAt)
            )
            facts.windows[key]?.held += 1
            return
        }
        var counts = facts.records[read.uid]?.unread ?? [:]
        let rows = ClearPlan.deliveries(
            for: read,
            eventId: event.event.id,
            appId: appId,
            tokens: facts.records[read.uid]?.tokens ?? [],
            usable: snapshot.usable,
            exceptSession: read.sessionId,
            badge: ClearPlan.badge(counts, reading: read.conversationId, settings: settings),
            now: now,
            expiresAt: now.addingTimeInterval(TimeInterval(settings.chatTTLSeconds)),
            status: .sending
        )
        counts[read.conversationId] = nil
        facts.records[read.uid]?.unread = counts
        var texts = TextCache()
        for row in rows {
            let push = snapshot.usableSettings(row.providerId).flatMap { settings in
                PushBuilder.push(for: row, of: event, snapshot: snapshot, settings: settings, texts: &texts, now: now)
            }
            var failed = row
            switch push {
            case .success(let push): plan.pushes.append(PreparedPush(delivery: row, push: push))
            case .failure(let reason):
                failed.status = .failed
                failed.reason = reason.description
            }
            step.deliveries.append(failed)
        }
        guard settings.clearCoalesceSeconds > 0, !rows.isEmpty else { return }
        let window = NoticeWindow(appId: appId, key: key, closesAt: now.addingTimeInterval(TimeInterval(settings.clearCoalesceSeconds)))
        step.windowChanges.append(.open(window))
        facts.windows[key] = window
    }

    /// Each recipient decided and planned, their unread counts moved as they are told, and the
    /// online sessions of each locale given one in-app notice.
    func planRecipients(
        _ uids: [String],
        of event: ResolvedEvent,
        facts: inout BatchFacts,
        snapshot: AppSnapshot,
        now: Date,
        texts: inout TextCache,
        step: inout FanOutStep,
        into plan: inout FanOutPlan
    ) {
        let settings = snapshot.settings
        let ttl = event.isCall ? settings.callTTLSeconds : settings.chatTTLSeconds
        var context = RecipientPlan.Context(event: event, snapshot: snapshot, now: now, expiresAt: now.addingTimeInterval(TimeInterval(ttl)))
        if settings.burstWindowSeconds > 0 { context.burstWindow = TimeInterval(settings.burstWindowSeconds) }
        var inApp: [String: [String]] = [:]  // locale → sessions
        for uid in uids {
            let (recipient, record) = facts.recipient(uid, of: event.event, settings: settings)
            let burstKey = NoticeWindow.Key(uid: uid, conversationId: event.conversationId, kind: .burst)
            // Windows are read only when the app uses them: most batches look none up.
            let burst = facts.windows.isEmpty ? nil : facts.windows[burstKey]
            let pushed = plan.pushes.count
            var planned = RecipientPlan.make(recipient, counts: record.unread, in: context, burst: burst, texts: &texts, pushes: &plan.pushes)
            if case .open(let window)? = planned.windowChange, let opened = windowsInFlight.open(window, at: now) {
                // Another batch alerted this conversation a moment ago: this message waits in its window.
                plan.pushes.removeSubrange(pushed...)
                planned = RecipientPlan.make(recipient, counts: record.unread, in: context, burst: opened, texts: &texts, pushes: &plan.pushes)
            }
            // Let go before the count moves below, which would otherwise copy the counts it shares.
            _ = consume record
            switch planned.windowChange {
            case .open(let window)?: facts.windows[burstKey] = window
            case .hold?: facts.windows[burstKey]?.held += 1
            default: break
            }
            if let change = planned.windowChange { step.windowChanges.append(change) }
            if let key = planned.unreadIncrement {
                step.unreadIncrements.append(key)
                facts.records[uid, default: .empty].unread[key.conversationId, default: 0] += 1
            }
            // An event's one recipient (every 1:1 message) hands its rows over, not copied.
            if step.deliveries.isEmpty { step.deliveries = planned.deliveries } else { step.deliveries += planned.deliveries }
            let sessions = planned.decision.inAppSessions
            if !sessions.isEmpty { inApp[recipient.user?.locale ?? "", default: []] += sessions }
            plan.decisions.add(.init(decision: planned.decision.name, eventType: event.templateType))
        }
        for (locale, sessions) in inApp {
            let text = texts.text(event, locale: locale.isEmpty ? nil : locale, snapshot: snapshot)
            let details = NotificationDetails(event, text: text, settings: settings, unread: nil).object
            let envelope = RealtimeEnvelope.event(.init(eventId: event.event.id, eventType: event.templateType.rawValue, payload: details))
            plan.inApp.append(.init(appId: snapshot.app.id, eventId: event.event.id, envelope: envelope, sessions: sessions))
        }
    }
}
