import Foundation
import Synchronization

/// Orders the pages of one event across fan-out batches, so that a group's next page is decided
/// and sent while the page before it is still being sent and recorded, yet is recorded only after
/// it, and only if it was.
///
/// A batch that plans a page with more to go opens a link to the next page (the event at its new
/// cursor). The next page goes back to the hand-off at once while fewer than `ahead` earlier
/// pages of the event wait to be recorded; otherwise it waits, as without a chain, until this
/// page is recorded. The batch that takes the next page records it after the link closes, and
/// drops it if the page before was not recorded here (another worker took the event over, or the
/// commit failed): its pushes then count among those in flight, sent again by whoever goes on.
/// A page waits only for an earlier page of its own event, so batches never wait for each other
/// in a circle.
public final class PageChain: Sendable {
    /// The page of `eventId` that starts after `cursor`.
    public struct Key: Hashable, Sendable {
        public var eventId: String
        public var cursor: String
    }

    struct Link {
        /// Whether the page before was recorded (nil: not yet known).
        var recorded: Bool?
        /// The next page's batch, waiting to record it (each page has one next page).
        var waiter: CheckedContinuation<Bool, Never>?
        /// The next page's batch failed before recording: nobody will read the outcome.
        var abandoned = false
    }

    struct State {
        var links: [Key: Link] = [:]
        /// Pages planned with a next page and not yet closed: by event, the cursors their next
        /// pages start after.
        var unclosed: [String: Set<String>] = [:]
    }

    /// How many earlier pages of an event may still be unrecorded when its next page goes on.
    public let ahead: Int
    private let state = Mutex(State())

    public init(ahead: Int = 1) {
        self.ahead = ahead
    }

    /// Links each next page to the page planned before it. Returns the pages that go on now; the
    /// others go on once their page before is recorded (``close(_:recorded:)``).
    public func open(_ nextPages: [StoredEvent]) -> (now: [StoredEvent], later: [StoredEvent]) {
        state.withLock { state in
            var now: [StoredEvent] = []
            var later: [StoredEvent] = []
            for page in nextPages {
                guard let cursor = page.cursor else { continue }
                let id = page.event.id
                if state.unclosed[id, default: []].count < ahead {
                    state.links[Key(eventId: id, cursor: cursor)] = Link()
                    now.append(page)
                } else {
                    later.append(page)
                }
                state.unclosed[id, default: []].insert(cursor)
            }
            return (now, later)
        }
    }

    /// Whether this step's page must wait for the page before it to be recorded.
    public func isLinked(_ step: FanOutStep) -> Bool {
        guard let cursor = step.fromCursor else { return false }
        return state.withLock { $0.links[Key(eventId: step.eventId, cursor: cursor)] != nil }
    }

    /// Waits until the page before this step's is recorded or dropped; true if it was recorded.
    /// A step without a link (a first page, or one that went on after its page before was
    /// recorded) does not wait.
    public func waitForPageBefore(_ step: FanOutStep) async -> Bool {
        guard let cursor = step.fromCursor else { return true }
        let key = Key(eventId: step.eventId, cursor: cursor)
        return await withCheckedContinuation { continuation in
            let outcome: Bool? = state.withLock { state in
                guard let link = state.links[key] else { return true }
                if let recorded = link.recorded {
                    state.links[key] = nil
                    return recorded
                }
                state.links[key]?.waiter = continuation
                return nil
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    /// This step's page was recorded or not: the next page, if it went on already, may now be
    /// recorded (or is dropped). A page closed already stays as it was.
    public func close(_ step: FanOutStep, recorded: Bool) {
        let waiter = state.withLock { Self.close(step, recorded: recorded, in: &$0) }
        waiter?.resume(returning: recorded)
    }

    /// A batch ended: its pages not closed yet were not recorded, and the links of its pages that
    /// it did not read (it failed before recording them) are forgotten.
    public func finish(_ steps: [FanOutStep]) {
        let waiters = state.withLock { state in
            var waiters: [CheckedContinuation<Bool, Never>] = []
            for step in steps {
                if let waiter = Self.close(step, recorded: false, in: &state) { waiters.append(waiter) }
                guard let cursor = step.fromCursor else { continue }
                let key = Key(eventId: step.eventId, cursor: cursor)
                if state.links[key]?.recorded != nil { state.links[key] = nil } else { state.links[key]?.abandoned = true }
            }
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }

    /// Closes the step's page in `state`; returns the next page's batch if it waits for it.
    private static func close(_ step: FanOutStep, recorded: Bool, in state: inout State) -> CheckedContinuation<Bool, Never>? {
        guard !step.done, let cursor = step.cursor, state.unclosed[step.eventId]?.remove(cursor) != nil else { return nil }
        if state.unclosed[step.eventId]?.isEmpty == true { state.unclosed[step.eventId] = nil }
        let key = Key(eventId: step.eventId, cursor: cursor)
        guard var link = state.links[key], link.recorded == nil else { return nil }
        if let waiter = link.waiter {
            state.links[key] = nil
            return waiter
        }
        if link.abandoned {
            state.links[key] = nil
        } else {
            link.recorded = recorded
            state.links[key] = link
        }
        return nil
    }

    /// Links and pages not yet closed or read: none once the pages in hand are recorded.
    public var count: Int { state.withLock { state in state.links.count + state.unclosed.values.reduce(0) { $0 + $1.count } } }
}
