import Foundation

/// A nudge for the worker loops: `poke()` wakes every loop that waits (or, when none does, the
/// next one to wait), and a wait ends by itself after its timeout.
actor Wakeup {
    private var pending = false
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextId = 0

    func poke() {
        guard !waiters.isEmpty else {
            pending = true
            return
        }
        let all = waiters
        waiters = [:]
        for continuation in all.values { continuation.resume() }
    }

    func wait(timeout: Duration) async {
        if pending {
            pending = false
            return
        }
        let id = nextId
        nextId += 1
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expire(id)
        }
        await withCheckedContinuation { continuation in
            waiters[id] = continuation
        }
        timer.cancel()
    }

    private func expire(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume()
    }
}
