import Foundation
import Synchronization

/// Events handed from the intake to this process's fan-out without a trip through the database:
/// the intake stores them already claimed (with a lease), so no other worker takes them, and puts
/// them here. If the process dies first, the lease runs out and any worker claims them from the
/// table — the hand-off saves work, it never holds the only copy.
///
/// Bounded, in events and in the bytes they were posted as: when the fan-out falls behind, new
/// events are stored unclaimed instead and wait in the table (and the fan-out is told to claim
/// from there). Each event it holds saves a claim later, which writes the event again (on
/// PostgreSQL a new version in each of its indexes) and reads and parses it back.
public final class EventHandOff: Sendable {
    /// An event waiting, with its share of the bytes its post took.
    struct Held {
        var stored: StoredEvent
        var bytes: Int
    }

    struct State {
        var queue: [Held] = []
        var head = 0
        var reserved = 0
        /// Posted bytes of the events waiting and of those reserved.
        var bytes = 0
        /// Notices that events wait in the table (stored unclaimed, leases taken over), counted.
        var noticed: UInt64 = 0
        /// Notices up to this one were followed by a claim that came back short: the table had
        /// no more then.
        var settled: UInt64 = 0
        var lastClaim = ContinuousClock.now
        /// Events taken by the fan-out and not yet recorded, by the batch holding them (an id
        /// held by two batches, such as a group's pages, is in both).
        var inFlight: [UInt64: [String]] = [:]
        var holdings: UInt64 = 0
    }

    public let capacity: Int
    /// Posted bytes (JSON) of the events waiting at most: with `capacity`, what bounds the memory
    /// they take (~1.3 KB for a short chat message). A post is let in when nothing waits, however
    /// large.
    public let byteCapacity: Int
    /// How often the fan-out claims from the table even while the hand-off keeps it busy (other
    /// processes' abandoned events, retried pages).
    public let claimInterval: Duration
    private let state = Mutex(State())

    public init(capacity: Int = 2_000, byteCapacity: Int = 64 << 20, claimInterval: Duration = .seconds(1)) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
        self.claimInterval = claimInterval
    }

    /// Makes room for `count` events posted as `bytes` of JSON; false when the hand-off is full
    /// (store them unclaimed).
    public func reserve(_ count: Int, bytes: Int) -> Bool {
        state.withLock { state in
            let waiting = state.queue.count - state.head + state.reserved
            guard waiting + count <= capacity, waiting == 0 || state.bytes + bytes <= byteCapacity else {
                state.noticed += 1
                return false
            }
            state.reserved += count
            state.bytes += bytes
            return true
        }
    }

    /// Hands over stored events, releasing a reservation of `reserved` events and `bytes` (some
    /// of which may not have been stored: an idempotent repeat; each stored one keeps its share).
    public func hand(_ events: [StoredEvent], reserved: Int, bytes: Int) {
        let share = reserved > 0 ? bytes / reserved : 0
        state.withLock { state in
            state.reserved -= reserved
            state.bytes -= bytes - share * events.count
            for event in events { state.queue.append(Held(stored: event, bytes: share)) }
        }
    }

    /// Gives back a reservation whose events were not stored.
    public func cancel(_ reserved: Int, bytes: Int) {
        state.withLock { state in
            state.reserved -= reserved
            state.bytes -= bytes
        }
    }

    /// An event this process keeps claimed for its next page (counted in no post's bytes).
    public func requeue(_ events: [StoredEvent]) {
        guard !events.isEmpty else { return }
        state.withLock { state in
            for event in events { state.queue.append(Held(stored: event, bytes: 0)) }
        }
    }

    /// Up to `limit` events, oldest first.
    public func take(_ limit: Int) -> [StoredEvent] {
        state.withLock { state in
            let end = min(state.queue.count, state.head + limit)
            var taken: [StoredEvent] = []
            taken.reserveCapacity(end - state.head)
            for index in state.head..<end {
                taken.append(state.queue[index].stored)
                state.bytes -= state.queue[index].bytes
            }
            state.head = end
            if state.head > 1_024, state.head * 2 > state.queue.count {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            return taken
        }
    }

    /// A batch's events held by ``hold(_:)``, given back by ``release(_:)``.
    public struct Holding: Sendable {
        let number: UInt64
    }

    /// The fan-out works on these events (taken from here or claimed from the table) until it
    /// releases the holding: their leases are renewed meanwhile. Kept as the batch's list, not
    /// id by id: hashing every event id in and out of a set of them was ~1 % of the server's CPU
    /// per push, for a set read only by the lease renewal every few seconds.
    public func hold(_ ids: [String]) -> Holding {
        state.withLock { state in
            state.holdings &+= 1
            state.inFlight[state.holdings] = ids
            return Holding(number: state.holdings)
        }
    }

    public func release(_ holding: Holding) {
        _ = state.withLock { state in state.inFlight.removeValue(forKey: holding.number) }
    }

    /// Every event this process holds claimed: waiting here or being worked on. Their leases
    /// must not run out while they wait behind a busy fan-out (another worker would take them
    /// over and send them a second time).
    public var heldIds: Set<String> {
        state.withLock { state in
            var ids = Set<String>()
            for batch in state.inFlight.values { ids.formUnion(batch) }
            for held in state.queue[state.head...] { ids.insert(held.stored.event.id) }
            return ids
        }
    }

    /// Events were stored unclaimed (Herald's own, or past a full hand-off): claim them soon.
    public func notePending() {
        state.withLock { $0.noticed += 1 }
    }

    /// A claim the fan-out is to make now, or nil: events may wait in the table (noticed and not
    /// yet found gone by a short claim), a claim interval passed (leases of dead processes run
    /// out), or `force`. While the table may hold more, every worker claims, each its own share
    /// (claims are atomic), rather than one at a time; ``claimed(_:of:ticket:)`` says what it found.
    public func claimTicket(now: ContinuousClock.Instant = .now, force: Bool = false) -> ClaimTicket? {
        state.withLock { state in
            guard force || state.noticed > state.settled || now - state.lastClaim >= claimInterval else { return nil }
            state.lastClaim = now
            return ClaimTicket(noticed: state.noticed)
        }
    }

    /// A claim found `count` of the `requested` events. A full claim means more may be waiting;
    /// a short one that the table is empty of what was noticed before the claim began (a notice
    /// that came while it ran still asks for another).
    public func claimed(_ count: Int, of requested: Int, ticket: ClaimTicket) {
        state.withLock { state in
            if count >= requested {
                if state.noticed == state.settled { state.noticed += 1 }
            } else {
                state.settled = max(state.settled, ticket.noticed)
            }
        }
    }

    /// When a claim began: how many notices of waiting events had come (``claimTicket(now:force:)``).
    public struct ClaimTicket: Sendable {
        let noticed: UInt64
    }

    /// Events waiting here.
    public var count: Int { state.withLock { $0.queue.count - $0.head } }

    /// Posted bytes of the events waiting here and of those reserved.
    public var bytes: Int { state.withLock { $0.bytes } }
}
