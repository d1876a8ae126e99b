import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Faults a stand-in injects into its answers: a share of requests refused (503 or 429) with a
/// `Retry-After`, a GOAWAY every so many requests, a fixed latency. It also watches the client:
/// a request for a key (device token) before the end of the wait it was last given is a
/// violation, and each key's accepted requests are counted (deliveries and duplicates).
public final class FaultPlan: Sendable {
    public struct Settings: Sendable {
        public var refusalRate: Double
        public var retryAfterSeconds: Int
        public var goAwayEvery: Int?
        public var latency: TimeAmount?
        /// A key is refused at most this many times in a row. Refusals are drawn at random, and
        /// the client's backoff doubles with each: six in a row (0.07 % of pushes at a 30 % rate,
        /// a one-in-ten chance somewhere among 160) put a push's next attempt past any test's
        /// patience. A provider that refuses a device for good is the giving-up tests' case.
        public var maxRefusalsInARow: Int

        public init(
            refusalRate: Double = 0.3,
            retryAfterSeconds: Int = 1,
            goAwayEvery: Int? = nil,
            latency: TimeAmount? = nil,
            maxRefusalsInARow: Int = 3
        ) {
            self.refusalRate = refusalRate
            self.retryAfterSeconds = retryAfterSeconds
            self.goAwayEvery = goAwayEvery
            self.latency = latency
            self.maxRefusalsInARow = maxRefusalsInARow
        }
    }

    /// What to do with one request.
    public struct Decision: Sendable {
        /// 503 or 429 with `Retry-After`, or nil to answer normally.
        public var refusal: Int?
        public var retryAfterSeconds: Int
        public var goAway: Bool
        public var delay: TimeAmount?
    }

    struct State {
        var requests = 0
        var refusals = 0
        var notBefore: [String: Date] = [:]
        /// When each key was last decided, and how many times so far.
        var history: [String: (last: Date, count: Int)] = [:]
        var violations: [String] = []
        var accepted: [String: Int] = [:]
        /// Each key's refusals since its last answer that was not one.
        var refusedInARow: [String: Int] = [:]
    }

    public let settings: Settings
    private let state = NIOLockedValueBox(State())

    public init(_ settings: Settings) {
        self.settings = settings
    }

    public func decide(key: String) -> Decision {
        let now = Date()
        return state.withLockedValue { state in
            state.requests += 1
            if let notBefore = state.notBefore[key], now < notBefore.addingTimeInterval(-0.05) {
                let previous =
                    state.history[key].map { "request \($0.count + 1), \(Int(now.timeIntervalSince($0.last) * 1000)) ms after the last" } ?? ""
                state.violations.append("\(key.prefix(12))… \(Int(notBefore.timeIntervalSince(now) * 1000)) ms early (\(previous))")
            }
            state.history[key] = (now, (state.history[key]?.count ?? 0) + 1)
            let goAway = settings.goAwayEvery.map { state.requests % $0 == 0 } ?? false
            if state.refusedInARow[key, default: 0] < settings.maxRefusalsInARow, Double.random(in: 0..<1) < settings.refusalRate {
                state.refusals += 1
                state.refusedInARow[key, default: 0] += 1
                state.notBefore[key] = now.addingTimeInterval(TimeInterval(settings.retryAfterSeconds))
                return Decision(
                    refusal: Bool.random() ? 503 : 429,
                    retryAfterSeconds: settings.retryAfterSeconds,
                    goAway: goAway,
                    delay: settings.latency
                )
            }
            state.notBefore[key] = nil
            state.refusedInARow[key] = nil
            return Decision(refusal: nil, retryAfterSeconds: 0, goAway: goAway, delay: settings.latency)
        }
    }

    /// The stand-in answered this key's request with success.
    public func accepted(key: String) {
        state.withLockedValue { $0.accepted[key, default: 0] += 1 }
    }

    public var requests: Int { state.withLockedValue { $0.requests } }
    public var refusals: Int { state.withLockedValue { $0.refusals } }
    public var violations: [String] { state.withLockedValue { $0.violations } }
    /// Successful answers per key.
    public var accepted: [String: Int] { state.withLockedValue { $0.accepted } }
}
