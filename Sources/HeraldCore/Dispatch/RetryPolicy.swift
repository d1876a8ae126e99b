import Foundation

/// When and whether to try again.
public struct RetryPolicy: Sendable {
    public var base: TimeInterval = 2
    public var factor: Double = 2
    public var maximum: TimeInterval = 15 * 60
    /// ± this fraction of the delay, so that a thousand retries do not land at once.
    public var jitter: Double = 0.2
    public var maxAttempts = 12

    public init() {}

    /// The wait before attempt `attempts + 1`; never shorter than the provider's Retry-After.
    public func delay(afterAttempts attempts: Int, retryAfter: Duration?, random: Double = Double.random(in: -1...1)) -> TimeInterval {
        let exponential = min(maximum, base * pow(factor, Double(max(0, attempts - 1))))
        let jittered = exponential * (1 + jitter * random)
        let floor = retryAfter.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0
        return max(jittered, floor)
    }
}
