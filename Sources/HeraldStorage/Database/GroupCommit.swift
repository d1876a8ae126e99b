import Synchronization

/// Group commit for writes that cannot join SQLite's writer (PostgreSQL): requests that arrive
/// while a batch is being stored wait, and go together in the next — one statement and one commit
/// for many callers, each awaiting its own answer. A request alone goes at once.
final class GroupCommit<Request: Sendable, Response: Sendable>: Sendable {
    typealias Outcome = Result<Response, any Error>

    private struct Waiting {
        var request: Request
        var continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State {
        var queue: [Waiting] = []
        var storing = false
    }

    private let state = Mutex(State())
    /// The most requests stored by one batch.
    let maxBatch: Int

    init(maxBatch: Int) {
        self.maxBatch = maxBatch
    }

    /// Stores `request` with whatever else is waiting: `store` gets a batch in arrival order and
    /// answers each of its requests, in order.
    func submit(_ request: Request, store: @escaping @Sendable ([Request]) async -> [Outcome]) async throws -> Response {
        let outcome = await withCheckedContinuation { continuation in
            let lead = state.withLock { state -> Bool in
                state.queue.append(Waiting(request: request, continuation: continuation))
                guard !state.storing else { return false }
                state.storing = true
                return true
            }
            if lead { Task { await self.drain(store) } }
        }
        return try outcome.get()
    }

    /// Stores batches until nothing waits.
    private func drain(_ store: @Sendable ([Request]) async -> [Outcome]) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let taken = Array(state.queue.prefix(maxBatch))
                state.queue.removeFirst(taken.count)
                if taken.isEmpty { state.storing = false }
                return taken
            }
            guard !batch.isEmpty else { return }
            let outcomes = await store(batch.map(\.request))
            for (index, waiting) in batch.enumerated() {
                waiting.continuation.resume(
                    returning: index < outcomes.count ? outcomes[index] : .failure(GroupCommitError.unanswered)
                )
            }
        }
    }
}

/// A batch's store gave fewer answers than it was given requests.
struct GroupCommitError: Error {
    static let unanswered = GroupCommitError()
}
