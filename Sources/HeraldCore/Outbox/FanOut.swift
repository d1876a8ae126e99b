import Foundation
import HeraldModels
import Tracing

/// Turns stored events into deliveries and sends them: takes events handed over by the intake
/// (or claims them from the table), works out one page of recipients per event (a group's
/// members 1,000 at a time, never all in memory), decides for each recipient with every lookup
/// made in bulk for the whole batch, sends the pushes, and then commits what happened — the
/// deliveries with their outcomes, the unread counts and the event's new cursor — in one
/// transaction. A process killed before that commit leaves its events claimed; when the lease
/// runs out another worker takes them over and sends again, so nothing is lost and duplicates
/// are bounded by one batch. A delivery is never stored twice.
public struct FanOut: Sendable {
    let ports: EnginePorts
    let context: EngineContext
    let dispatcher: Dispatcher
    public let handOff: EventHandOff
    let ledger: UnreadLedger
    let clock: any WallClock
    public var pageSize: Int
    /// How long a claimed event is ours before another worker may take it over.
    public var lease: TimeInterval

    public init(ports: EnginePorts, context: EngineContext, dispatcher: Dispatcher, handOff: EventHandOff = EventHandOff(),
                ledger: UnreadLedger = UnreadLedger(), clock: any WallClock = SystemWallClock(), pageSize: Int = 1_000, lease: TimeInterval = 60) {
        self.ports = ports
        self.context = context
        self.dispatcher = dispatcher
        self.handOff = handOff
        self.ledger = ledger
        self.clock = clock
        self.pageSize = pageSize
        self.lease = lease
    }

    public struct Result: Sendable {
        /// Events (pages of events) worked on.
        public var events: Int
        /// Pushes and webhook calls attempted.
        public var sent: Int
    }

    /// Takes up to `limit` events, one fan-out step for each: decide, send, record. Events come
    /// from the hand-off, and from the table when some wait there (or `claim` says so).
    public func runOnce(limit: Int, claim: Bool = false) async throws -> Result {
        let now = clock.now()
        var batch = handOff.take(limit)
        // Events waiting in the table get a share of every batch, so they never starve behind
        // a hand-off kept full.
        if claim || handOff.shouldClaim() {
            let wanted = max(limit - batch.count, limit / 4)
            let claimed = try await ports.events.claimEvents(limit: wanted, now: now, leaseUntil: now.addingTimeInterval(lease))
            handOff.claimed(claimed.count, of: wanted)
            batch += claimed
        }
        guard !batch.isEmpty else { return Result(events: 0, sent: 0) }
        var seen = Set<String>()
        batch = batch.filter { seen.insert($0.event.id).inserted }
        // Held until recorded: ``renewLeases()`` keeps their leases (and those of events waiting
        // in the hand-off) from running out, so no other worker takes one over and sends it twice.
        let held = batch.map(\.event.id)
        handOff.hold(held)
        defer { handOff.release(held) }
        let clock = ContinuousClock()
        let started = clock.now
        let traced = EventTracing.isOn ? TracedPhases(start: DefaultTracerClock.now) : nil
        var plan = Plan()
        for (appId, events) in Dictionary(grouping: batch, by: \.event.appId) {
            try await self.plan(appId: appId, events: events, now: now, into: &plan)
        }
        let decided = clock.now
        traced?.decided = DefaultTracerClock.now
        defer { for (appId, keys) in plan.unreadInFlight { ledger.add(appId: appId, keys, by: -1) } }
        let toSend = plan.steps.flatMap { $0.deliveries.filter { $0.status == .sending } }
        let decisions = traced == nil ? [:] : Dictionary(plan.steps.map { ($0.eventId, TracedPhases.decisions(of: $0.deliveries)) }, uniquingKeysWith: { $1 })
        let updates = await dispatcher.send(toSend, events: plan.events, countsAreCurrent: true)
        let sent = clock.now
        traced?.sent = DefaultTracerClock.now
        let outcomes = Dictionary(updates.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for index in plan.steps.indices {
            for position in plan.steps[index].deliveries.indices {
                if let outcome = outcomes[plan.steps[index].deliveries[position].id] { plan.steps[index].deliveries[position].apply(outcome) }
            }
        }
        let recorded = try await ports.events.commitFanOut(plan.steps, at: now)
        ports.observer.fannedOut(events: batch.count, decide: decided - started, send: sent - decided, record: clock.now - sent)
        if let traced {
            traced.recorded = DefaultTracerClock.now
            let traceParents = Dictionary(batch.map { ($0.event.id, $0.event.traceParent) }, uniquingKeysWith: { a, _ in a })
            for step in plan.steps where recorded.contains(step.eventId) {
                traced.trace(step, event: plan.events[step.eventId], traceParent: traceParents[step.eventId] ?? nil, decisions: decisions[step.eventId] ?? [:])
            }
        }
        // An event another worker took over (and recorded first) is its to go on with.
        handOff.requeue(plan.nextPages.filter { recorded.contains($0.event.id) })
        for item in plan.inApp where recorded.contains(item.eventId) {
            _ = await ports.realtime.deliver(item.envelope, appId: item.appId, sessionIds: item.sessions)
        }
        return Result(events: batch.count, sent: toSend.count)
    }

    /// Renews, every third of a lease, the leases of the events this process holds (waiting in
    /// the hand-off or being worked on), until cancelled. A worker starved for longer than a
    /// lease may still be overtaken; then the first to record a page wins (``FanOutStep``).
    public func renewLeases() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(lease / 3))
            guard !Task.isCancelled else { return }
            let ids = handOff.heldIds
            guard !ids.isEmpty else { continue }
            try? await ports.events.renewEventLeases(ids: ids, until: clock.now().addingTimeInterval(lease))
        }
    }

    struct Plan {
        var steps: [FanOutStep] = []
        var events: [String: ResolvedEvent] = [:]
        var inApp: [(appId: String, eventId: String, envelope: RealtimeEnvelope, sessions: [String])] = []
        /// Unread increments decided here and not yet committed (in the ledger until then).
        var unreadInFlight: [(String, [UnreadKey])] = []
        /// Events with more pages, kept claimed by this process.
        var nextPages: [StoredEvent] = []
    }

    /// One page of recipients of one event.
    struct Page {
        var stored: StoredEvent
        var recipients: [String]
        var cursor: String?
        var done: Bool
    }

    func plan(appId: String, events: [StoredEvent], now: Date, into plan: inout Plan) async throws {
        let leaseUntil = now.addingTimeInterval(lease)
        guard let snapshot = try await context.app(appId) else {
            plan.steps += events.map { FanOutStep(appId: appId, eventId: $0.event.id, fromCursor: $0.cursor, done: true, recipients: 0, leaseUntil: leaseUntil) }
            return
        }
        let settings = snapshot.settings
        var pages: [Page] = []
        for stored in events { pages.append(try await page(of: stored, appId: appId)) }

        let recipientUids = Array(Set(pages.flatMap(\.recipients)))
        let named = Set(events.flatMap { ResolvedEvent.namedUids($0.event) })
        async let usersRead = ports.directory.users(appId: appId, uids: Array(named.union(recipientUids)))
        async let lookupsRead = Lookups.load(ports: ports, appId: appId, uids: recipientUids, settings: settings)
        var groups: [String: Group] = [:]
        for guid in Set(events.compactMap { ResolvedEvent.namedGroup($0.event) }) {
            groups[guid] = try await ports.groups.group(appId: appId, guid: guid)
        }
        let users = try await usersRead, lookups = try await lookupsRead
        var unread = ledger.merged(appId: appId, uids: recipientUids, into: lookups.unread)
        var texts = TextCache()
        var increments: [UnreadKey] = []

        for page in pages {
            let event = ResolvedEvent.resolve(page.stored.event, app: snapshot.app, users: users,
                                              group: ResolvedEvent.namedGroup(page.stored.event).flatMap { groups[$0] })
            plan.events[event.event.id] = event
            var step = FanOutStep(appId: appId, eventId: event.event.id, fromCursor: page.stored.cursor, cursor: page.cursor, done: page.done, recipients: page.recipients.count, leaseUntil: leaseUntil)
            if page.stored.cursor == nil && page.done {
                step.reason = Self.nobodyReason(page.stored.event, recipients: page.recipients, users: users, groups: groups)
            }
            if !page.done {
                var next = page.stored
                next.cursor = page.cursor
                plan.nextPages.append(next)
            }
            switch event.event.body {
            case .read(let read):
                step.unreadResets = [UnreadKey(uid: read.uid, conversationId: read.conversationId)]
            case .session(let session):
                step.deliveries = sessionDeliveries(session, event: event.event, settings: settings, now: now)
            default:
                let expiresAt = now.addingTimeInterval(TimeInterval(event.isCall ? settings.callTTLSeconds : settings.chatTTLSeconds))
                var inApp: [String: [String]] = [:]   // locale → sessions
                for uid in page.recipients {
                    let facts = RecipientFacts(
                        uid: uid, user: users[uid], preferences: (lookups.preferences[uid] ?? .init()).over(settings.defaultPreferences),
                        mutes: lookups.mutes[uid] ?? [], presence: lookups.presence[uid] ?? [], tokens: lookups.tokens[uid] ?? []
                    )
                    let decision = Decider.decide(event, facts, settings: settings, providers: snapshot.providers, now: now)
                    var counts = unread[uid] ?? [:]
                    if case .message(let message) = event.event.body, message.action == .new, !decision.isSkip {
                        let key = UnreadKey(uid: uid, conversationId: event.conversationId)
                        counts[event.conversationId, default: 0] += 1
                        step.unreadIncrements.append(key)
                        increments.append(key)
                        unread[uid] = counts
                    }
                    let badge = settings.badge ? counts.values.reduce(0, +) : nil
                    step.deliveries += deliveries(for: decision, event: event, uid: uid, locale: users[uid]?.locale, badge: badge,
                                                  unread: counts[event.conversationId], expiresAt: expiresAt, now: now)
                    if let sessions = decision.inAppSessions, !sessions.isEmpty { inApp[users[uid]?.locale ?? "", default: []] += sessions }
                    ports.observer.decided(decision.name, eventType: event.templateType)
                }
                for (locale, sessions) in inApp {
                    let text = texts.text(event, locale: locale.isEmpty ? nil : locale, snapshot: snapshot)
                    let details = NotificationDetails.build(event, text: text, settings: settings, unread: nil)
                    plan.inApp.append((appId, event.event.id, .event(.init(eventId: event.event.id, eventType: event.templateType, payload: details)), sessions))
                }
            }
            plan.steps.append(step)
        }
        // Batches in flight at the same time see each other's increments.
        ledger.add(appId: appId, increments)
        plan.unreadInFlight.append((appId, increments))
    }

    /// Why an event that ended on its first page reached nobody, when the directory says why: its
    /// group does not exist or has no member but the one who acted, or none of its receivers is
    /// a known user. Nil when it reached someone (or, like `read`, is for nobody).
    static func nobodyReason(_ event: ChatEvent, recipients: [String], users: [String: User], groups: [String: Group]) -> NobodyReason? {
        if let guid = Recipients.direct(event).membersOf {
            guard recipients.isEmpty else { return nil }
            return groups[guid] == nil ? .unknownGroup : .noMembers
        }
        guard !recipients.isEmpty, recipients.allSatisfy({ users[$0] == nil }) else { return nil }
        return .unknownUser
    }

    /// The next page of an event's recipients: the direct ones on the first page, then the
    /// group's members after the cursor (without the one who acted, or anyone told already).
    func page(of stored: StoredEvent, appId: String) async throws -> Page {
        let (direct, guid, except) = Recipients.direct(stored.event)
        var recipients = stored.cursor == nil ? direct : []
        guard let guid else { return Page(stored: stored, recipients: recipients, cursor: nil, done: true) }
        // One member more than a page says whether another page follows.
        let members = try await ports.groups.members(appId: appId, guid: guid, afterUid: stored.cursor, limit: pageSize + 1)
        let page = members.prefix(pageSize)
        let skip = Set(direct + (except.map { [$0] } ?? []))
        recipients += page.map(\.uid).filter { !skip.contains($0) }
        let more = members.count > pageSize
        return Page(stored: stored, recipients: recipients, cursor: more ? page.last?.uid : nil, done: !more)
    }

    func deliveries(for decision: Decision, event: ResolvedEvent, uid: String, locale: String?, badge: Int?, unread: Int?,
                    expiresAt: Date, now: Date) -> [Delivery] {
        let base = Delivery(appId: event.event.appId, eventId: event.event.id, uid: uid, channel: .none, target: "-", locale: locale,
                            badge: badge, unread: unread, status: .skipped, createdAt: now)
        switch decision {
        case .skip(let reason):
            var row = base
            row.reason = reason
            return [row]
        case .inApp(let sessions):
            var row = base
            row.channel = .inapp
            row.target = "inapp"
            row.status = .inapp
            row.reason = "online (\(sessions.count) session\(sessions.count == 1 ? "" : "s"))"
            return [row]
        case .push(let choices, let webhooks, let sessions):
            var rows: [Delivery] = []
            for choice in choices {
                var row = base
                row.id = Identifier.timeOrdered("dlv_")
                row.channel = .push
                row.target = choice.token.token
                row.sessionId = choice.token.sessionId
                row.providerId = choice.token.providerId
                row.platform = choice.token.platform
                row.route = choice.route
                row.status = .sending
                row.reason = nil
                row.expiresAt = expiresAt
                rows.append(row)
            }
            for providerId in webhooks {
                var row = base
                row.id = Identifier.timeOrdered("dlv_")
                row.channel = .webhook
                row.target = "webhook:" + providerId
                row.providerId = providerId
                row.status = .sending
                row.reason = nil
                row.expiresAt = expiresAt
                rows.append(row)
            }
            if !sessions.isEmpty {
                var row = base
                row.id = Identifier.timeOrdered("dlv_")
                row.channel = .inapp
                row.target = "inapp"
                row.status = .inapp
                row.reason = "online (\(sessions.count) session\(sessions.count == 1 ? "" : "s"))"
                rows.append(row)
            }
            return rows
        }
    }

    /// Kandy's silent notification to each device of a session that ended (VoIP tokens excluded).
    func sessionDeliveries(_ session: SessionEvent, event: ChatEvent, settings: PushSettings, now: Date) -> [Delivery] {
        guard settings.enabled else {
            return [Delivery(appId: event.appId, eventId: event.id, uid: session.uid, channel: .none, target: "-", status: .skipped,
                             reason: "push_disabled", createdAt: now)]
        }
        return session.devices.filter { $0.platform.tokenKind != .apnsVoIP }.map { device in
            Delivery(appId: event.appId, eventId: event.id, uid: session.uid, channel: .push, target: device.token, sessionId: session.sessionId,
                     providerId: device.providerId, platform: device.platform, route: .background, status: .sending,
                     expiresAt: now.addingTimeInterval(3_600), createdAt: now)
        }
    }
}

/// The fan-out's bulk reads for one page of recipients.
struct Lookups {
    var preferences: [String: NotificationPreferences] = [:]
    var mutes: [String: [ConversationMute]] = [:]
    var presence: [String: [PresenceRecord]] = [:]
    var tokens: [String: [PushToken]] = [:]
    var unread: [String: [String: Int]] = [:]

    /// The five reads run at once (they hit different tables; PostgreSQL and SQLite's readers
    /// take them in parallel).
    static func load(ports: EnginePorts, appId: String, uids: [String], settings: PushSettings) async throws -> Lookups {
        guard !uids.isEmpty else { return Lookups() }
        async let preferences = ports.preferences.preferences(appId: appId, uids: uids)
        async let mutes = ports.preferences.mutes(appId: appId, uids: uids)
        async let presence = ports.presence.onlineSessions(appId: appId, uids: uids)
        async let tokens = ports.directory.tokens(appId: appId, uids: uids)
        async let unread = ports.unread.unreadCounts(appId: appId, uids: uids)
        return Lookups(preferences: try await preferences, mutes: try await mutes, presence: try await presence,
                       tokens: Dictionary(grouping: try await tokens, by: \.uid), unread: try await unread)
    }
}

extension Decision {
    var isSkip: Bool {
        if case .skip = self { return true }
        return false
    }

    /// The decision as counted: `push`, `inapp` or the skip reason.
    var name: String {
        switch self {
        case .skip(let reason): reason
        case .inApp: "inapp"
        case .push: "push"
        }
    }

    var inAppSessions: [String]? {
        switch self {
        case .skip: nil
        case .inApp(let sessions): sessions
        case .push(_, _, let sessions): sessions
        }
    }
}
