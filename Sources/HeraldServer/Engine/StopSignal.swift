import Foundation
import Synchronization

/// A one-way signal: set once, seen by every loop, waited on by tasks (a wait also ends when its
/// task is cancelled).
final class StopSignal: Sendable {
    private struct State {
        var signalled = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextId = 0
    }

    private let state = Mutex(State())

    var isSignalled: Bool { state.withLock { $0.signalled } }

    func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.signalled else { return [] }
            state.signalled = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        let id = state.withLock { state -> Int in
            state.nextId += 1
            return state.nextId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.signalled || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
