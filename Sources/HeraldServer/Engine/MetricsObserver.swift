import HeraldCore
import Logging
import Metrics

/// The engine's counters for Prometheus — decisions by event type, push attempts by provider,
/// outcome and reason, events accepted, and how long fan-out batches spend deciding, sending and
/// recording — and its log lines at the default level: a summary of each batch with failures,
/// each pruned token (its last characters only), each credential set aside.
struct MetricsObserver: EngineObserver {
    var logger = Logger(label: "herald.engine")
    /// The counters and timers of each label set, made once: asking the factory each time was a
    /// lookup in its registry under a lock. Decisions and verdicts come counted per batch; a
    /// provider's latency comes with every push.
    private let decisions = MetricsCache<DecisionLabels, Counter>()
    private let attempts = MetricsCache<AttemptLabels, Counter>()
    private let latencies = MetricsCache<String, Timer>()

    struct DecisionLabels: Hashable {
        var decision: String
        var eventType: EventKind
    }

    struct AttemptLabels: Hashable {
        var provider: String
        var outcome: String
        var reason: String
    }

    func decided(_ decision: String, eventType: EventKind, count: Int) {
        decisions.metric(DecisionLabels(decision: decision, eventType: eventType)) {
            Counter(label: "herald_decisions_total", dimensions: [("decision", decision), ("event_type", eventType.rawValue)])
        }.increment(by: Int64(count))
    }

    func attempted(provider: String, outcome: String, reason: String?, count: Int) {
        let reason = Self.label(reason)
        attempts.metric(AttemptLabels(provider: provider, outcome: outcome, reason: reason)) {
            Counter(label: "herald_push_attempts_total", dimensions: [("provider", provider), ("outcome", outcome), ("reason", reason)])
        }.increment(by: Int64(count))
    }

    func accepted(events: Int) {
        Counter(label: "herald_events_accepted_total").increment(by: Int64(events))
    }

    func fannedOut(events: Int, take: Duration, decide: Duration, send: Duration, record: Duration) {
        for (phase, duration) in [("take", take), ("decide", decide), ("send", send), ("record", record)] {
            Timer(label: "herald_fanout_batch_seconds", dimensions: [("phase", phase)]).recordNanoseconds(Self.nanoseconds(duration))
        }
        Counter(label: "herald_fanout_events_total").increment(by: Int64(events))
    }

    func batchHadFailures(_ failures: [BatchFailure], appId: String, providerId: String, provider: String) {
        for failure in failures {
            let metadata: Logger.Metadata = [
                "app": "\(appId)", "provider": "\(providerId)", "kind": "\(provider)", "outcome": "\(failure.outcome)",
                "reason": "\(failure.reason)", "count": "\(failure.count)",
            ]
            if failure.outcome == "retrying" {
                logger.info("pushes will be retried", metadata: metadata)
            } else {
                logger.warning("pushes failed", metadata: metadata)
            }
        }
    }

    func tokenPruned(_ token: String, appId: String, providerId: String, reason: String) {
        logger.info(
            "push token pruned",
            metadata: [
                "app": "\(appId)", "provider": "\(providerId)", "reason": "\(reason)",
                "token": "\(Self.tokenHint(token))",
            ]
        )
    }

    func credentialSetAside(appId: String, providerId: String, reason: String) {
        logger.error(
            "provider credential set aside until it is changed",
            metadata: ["app": "\(appId)", "provider": "\(providerId)", "reason": "\(reason)"]
        )
    }

    func providerAnswered(provider: String, after latency: Duration) {
        latencies.metric(provider) { Timer(label: "herald_provider_request_seconds", dimensions: [("provider", provider)]) }
            .recordNanoseconds(Self.nanoseconds(latency))
    }

    /// Enough of a token to find it in the delivery log, never the token.
    static func tokenHint(_ token: String) -> String {
        token.count > 12 ? "…" + token.suffix(6) : "…"
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// A reason as a label of bounded variety: the provider's code (`BadDeviceToken`,
    /// `UNREGISTERED`, `80300007`), or the kind of local failure.
    static func label(_ reason: String?) -> String {
        guard let reason, !reason.isEmpty else { return "none" }
        if reason.hasPrefix("transport") { return "transport" }
        let code = reason.prefix { $0 != ":" && $0 != " " && $0 != "(" }
        return String(code.prefix(40))
    }
}
