import Foundation

/// A token bucket: `burst` requests at once, refilled at `rate` per second. Pure arithmetic on
/// the times it is given, so that callers choose the clock and tests move it by hand.
public struct TokenBucket: Sendable, Equatable {
    public struct Limit: Sendable, Equatable {
        /// Requests per second, sustained.
        public var rate: Double
        /// Requests that may arrive at once after a quiet spell.
        public var burst: Double

        public init(rate: Double, burst: Double? = nil) {
            self.rate = rate
            self.burst = max(1, burst ?? rate * 2)
        }
    }

    private var tokens: Double
    private var updatedAt: TimeInterval

    /// A full bucket at `now` (seconds on any monotonic scale).
    public init(limit: Limit, now: TimeInterval) {
        self.tokens = limit.burst
        self.updatedAt = now
    }

    /// Takes one token. Nil when the request may go ahead; otherwise the seconds until a token
    /// is there (the bucket is left as it was: a refused request costs nothing).
    public mutating func take(limit: Limit, now: TimeInterval) -> TimeInterval? {
        refill(limit: limit, now: now)
        // Refills are sums of small fractions: a hair under one token is one token.
        if tokens >= 1 - 1e-9 {
            tokens = max(0, tokens - 1)
            return nil
        }
        return max(0, 1 - tokens) / limit.rate
    }

    /// Whether the bucket has refilled completely by `now`: it can then be forgotten, since a
    /// new full bucket is the same thing.
    public func isFull(limit: Limit, now: TimeInterval) -> Bool {
        tokens + (now - updatedAt) * limit.rate >= limit.burst
    }

    private mutating func refill(limit: Limit, now: TimeInterval) {
        guard now > updatedAt else { return }
        tokens = min(limit.burst, tokens + (now - updatedAt) * limit.rate)
        tokens = max(0, tokens)
        updatedAt = now
    }
}
