import Foundation
import HeraldCore
import Hummingbird
import NIOConcurrencyHelpers

/// One token bucket per presented credential, kept in memory by each process. A caller over its
/// limit gets `429 too_many_requests` with `Retry-After` (whole seconds, rounded up) before the
/// credential is looked up or the body read.
final class RateLimiter: Sendable {
    private struct State {
        /// API keys' buckets and everyone else's, apart: each is swept with its own limit.
        var keys: [String: TokenBucket] = [:]
        var tokens: [String: TokenBucket] = [:]
        var lastSweep: TimeInterval = 0
    }

    let limits: RateLimits
    private let state = NIOLockedValueBox(State())
    private let now: @Sendable () -> TimeInterval
    /// Buckets kept before idle (refilled) ones are swept.
    private let sweepAbove: Int

    init(limits: RateLimits, sweepAbove: Int = 50_000, now: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }) {
        self.limits = limits
        self.sweepAbove = sweepAbove
        self.now = now
    }

    /// Nil when the request may go ahead, else the seconds to wait.
    func admit(bearer: String) -> TimeInterval? {
        let isKey = bearer.hasPrefix(AppManagement.apiKeyPrefix)
        guard let limit = isKey ? limits.apiKey : limits.userToken else { return nil }
        let time = now()
        return state.withLockedValue { state in
            if state.keys.count + state.tokens.count > sweepAbove, time - state.lastSweep > 1 {
                if let keyLimit = limits.apiKey { state.keys = state.keys.filter { !$0.value.isFull(limit: keyLimit, now: time) } }
                if let tokenLimit = limits.userToken { state.tokens = state.tokens.filter { !$0.value.isFull(limit: tokenLimit, now: time) } }
                state.lastSweep = time
            }
            var bucket = (isKey ? state.keys[bearer] : state.tokens[bearer]) ?? TokenBucket(limit: limit, now: time)
            let wait = bucket.take(limit: limit, now: time)
            if isKey { state.keys[bearer] = bucket } else { state.tokens[bearer] = bucket }
            return wait
        }
    }
}
