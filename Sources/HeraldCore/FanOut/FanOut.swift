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
/// are bounded by the batches in flight (of a group, the page in hand and the one decided ahead
/// of it, ``PageChain``). A delivery is never stored twice.
public struct FanOut: Sendable {
    let ports: EnginePorts
    let snapshots: AppSnapshots
    let dispatcher: Dispatcher
    public let handOff: EventHandOff
    /// Callers waiting for their events' deliveries (the Matrix push gateway).
    public let waiters = EventWaiters()
    let ledger: UnreadLedger
    let windowsInFlight = WindowLedger()
    /// Orders the pages of an event decided ahead of the page before them.
    public let pages = PageChain()
    /// Called when next pages go back to the hand-off before their batch ends (wakes idle workers).
    let nextPagesWentOn: @Sendable () async -> Void
    let clock: any WallClock
    public var pageSize: Int
    /// Who this process claims events as, and for how long before another worker may take one over.
    public var claims: ClaimPolicy
    public var lease: TimeInterval { claims.lease }

    public init(
        ports: EnginePorts,
        snapshots: AppSnapshots,
        dispatcher: Dispatcher,
        handOff: EventHandOff = EventHandOff(),
        ledger: UnreadLedger = UnreadLedger(),
        clock: any WallClock = SystemWallClock(),
        pageSize: Int = 1_000,
        claims: ClaimPolicy = .anonymous(),
        nextPagesWentOn: @escaping @Sendable () async -> Void = {}
    ) {
        self.ports = ports
        self.snapshots = snapshots
        self.dispatcher = dispatcher
        self.handOff = handOff
        self.ledger = ledger
        self.clock = clock
        self.pageSize = pageSize
        self.claims = claims
        self.nextPagesWentOn = nextPagesWentOn
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
        var timing = FanOutTiming()
        let batch = try await takeBatch(limit: limit, claim: claim, now: now)
        guard !batch.isEmpty else { return Result(events: 0, sent: 0) }
        timing.taken()
        // Held until recorded: ``renewLeases()`` keeps their leases (and those of events waiting
        // in the hand-off) from running out, so no other worker takes one over and sends it twice.
        let held = handOff.hold(batch.map(\.event.id))
        defer { handOff.release(held) }
        var plan = try await self.plan(batch, now: now)
        defer { for (appId, keys) in plan.unreadInFlight { ledger.add(appId: appId, keys, by: -1) } }
        let opened = plan.steps.flatMap(\.windowChanges).compactMap { change -> NoticeWindow? in
            if case .open(let window) = change { return window }
            return nil
        }
        defer { windowsInFlight.remove(opened) }
        // A group's next page goes on now: decided and sent while this one is sent and recorded.
        let (goingOn, later) = pages.open(plan.nextPages)
        defer { pages.finish(plan.steps) }
        handOff.requeue(goingOn)
        if !goingOn.isEmpty { await nextPagesWentOn() }
        timing.decided()
        plan.record(await dispatcher.send(plan.pushes, snapshots: plan.snapshots))
        timing.sent()
        let recorded = try await record(plan.steps, at: now)
        timing.recorded()
        report(timing, batch: batch, plan: plan, recorded: recorded)
        await carryOn(plan, later: later, recorded: recorded)
        return Result(events: batch.count, sent: plan.pushes.count)
    }

    /// Records a batch's steps: at once in one commit, but for pages whose page before is still
    /// being recorded, each of which is recorded after it (and dropped if it was not recorded
    /// here). Each such page waits only for its own page before, never for the batch's others.
    func record(_ steps: [FanOutStep], at now: Date) async throws -> Set<String> {
        var linked: [FanOutStep] = []
        var ready: [FanOutStep] = []
        // Mostly no page waits for another (1:1 messages): then the steps go on as they are.
        if steps.contains(where: pages.isLinked) {
            for step in steps {
                if pages.isLinked(step) { linked.append(step) } else { ready.append(step) }
            }
        } else {
            ready = steps
        }
        var recorded = ready.isEmpty ? [] : try await ports.events.commitFanOut(ready, at: now)
        for index in ready.indices { pages.close(ready[index], recorded: recorded.contains(ready[index].eventId)) }
        guard !linked.isEmpty else { return recorded }
        try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for step in linked {
                group.addTask {
                    guard await pages.waitForPageBefore(step) else {
                        pages.close(step, recorded: false)
                        return []
                    }
                    let one = try await ports.events.commitFanOut([step], at: now)
                    pages.close(step, recorded: one.contains(step.eventId))
                    return one
                }
            }
            for try await one in group { recorded.formUnion(one) }
        }
        return recorded
    }

    /// Events handed over by the intake, and a share of those waiting in the table, so that they
    /// never starve behind a hand-off kept full.
    func takeBatch(limit: Int, claim: Bool, now: Date) async throws -> [StoredEvent] {
        var batch = handOff.take(limit)
        if let ticket = handOff.claimTicket(force: claim) {
            let wanted = max(limit - batch.count, limit / 4)
            let claimed = try await ports.events.claimEvents(limit: wanted, now: now, claim: claims.claim(at: now))
            handOff.claimed(claimed.count, of: wanted, ticket: ticket)
            batch += claimed
        }
        var seen = Set<String>()
        return batch.filter { seen.insert($0.event.id).inserted }
    }

    /// What happens next to what was recorded: events with pages to go that did not go on at once
    /// back in the hand-off (an event another worker took over and recorded first is its to go on
    /// with), and the online sessions told.
    func carryOn(_ plan: FanOutPlan, later: [StoredEvent], recorded: Set<String>) async {
        handOff.requeue(later.filter { recorded.contains($0.event.id) })
        waiters.settled(plan.steps.filter { recorded.contains($0.eventId) }.flatMap(\.deliveries))
        for notice in plan.inApp where recorded.contains(notice.eventId) {
            _ = await ports.realtime.deliver(notice.envelope, appId: notice.appId, sessionIds: notice.sessions)
        }
    }

    func report(_ timing: FanOutTiming, batch: [StoredEvent], plan: FanOutPlan, recorded: Set<String>) {
        ports.observer.fannedOut(events: batch.count, take: timing.take, decide: timing.decide, send: timing.send, record: timing.record)
        for (decided, count) in plan.decisions.counts { ports.observer.decided(decided.decision, eventType: decided.eventType, count: count) }
        guard let traced = timing.traced else { return }
        let traceParents = Dictionary(batch.map { ($0.event.id, $0.event.traceParent) }, uniquingKeysWith: { first, _ in first })
        for step in plan.steps where recorded.contains(step.eventId) {
            traced.trace(step, event: plan.events[step.eventId], traceParent: traceParents[step.eventId] ?? nil)
        }
    }

    /// Renews, every third of a lease, the leases of the events this process holds (waiting in
    /// the hand-off or being worked on), until cancelled. A lease taken or renewed within the last
    /// sixth of a lease (10 s by default) is left as it is, so that a burst worked off in seconds
    /// is not written again; the others are renewed with half a lease to spare, should a round
    /// come late. A worker starved for longer than a lease may still be overtaken; then the first
    /// to record a page wins (``FanOutStep``).
    public func renewLeases() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(lease / 3))
            guard !Task.isCancelled else { return }
            let ids = handOff.heldIds
            guard !ids.isEmpty else { continue }
            let now = clock.now()
            try? await ports.events.renewEventLeases(
                ids: ids,
                until: now.addingTimeInterval(lease),
                endingBefore: now.addingTimeInterval(lease * 5 / 6)
            )
        }
    }
}
