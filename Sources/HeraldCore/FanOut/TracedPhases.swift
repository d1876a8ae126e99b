import Foundation
import HeraldModels
import ServiceContextModule
import Tracing

/// The spans of one fan-out batch, given to each of its events afterwards: `herald.fanout` (a
/// child of the request that posted the event) with `herald.decide`, one `herald.send` per
/// provider and `herald.record` under it. Attributes say what happened — app, event type,
/// recipients, decisions, provider, outcome — never a token or a secret.
final class TracedPhases {
    let start: DefaultTracerClock.Instant
    var decided: DefaultTracerClock.Instant
    var sent: DefaultTracerClock.Instant
    var recorded: DefaultTracerClock.Instant

    init(start: DefaultTracerClock.Instant) {
        self.start = start
        decided = start
        sent = start
        recorded = start
    }

    /// Decisions of one step: how many were pushed (or called), told in-app, or skipped.
    static func decisions(of deliveries: [Delivery]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for delivery in deliveries {
            let name =
                switch delivery.status {
                case .inapp: "inapp"
                case .skipped: "skipped"
                case .held: "held"
                default: "push"
                }
            counts[name, default: 0] += 1
        }
        return counts
    }

    func trace(_ step: FanOutStep, event: ResolvedEvent?, traceParent: String?) {
        let decisions = Self.decisions(of: step.deliveries)
        let tracer = InstrumentationSystem.tracer
        let fanOut = tracer.startSpan("herald.fanout", context: EventTracing.context(traceParent: traceParent), ofKind: .internal, at: start)
        fanOut.attributes["herald.app"] = step.appId
        fanOut.attributes["herald.event.id"] = step.eventId
        if let event { fanOut.attributes["herald.event.type"] = event.event.kind.rawValue }
        fanOut.attributes["herald.recipients"] = step.recipients
        if let reason = step.reason { fanOut.attributes["herald.nobody_reason"] = reason.rawValue }

        var decided = SpanAttributes()
        for (name, count) in decisions { decided["herald.decisions.\(name)"] = count }
        EventTracing.span("herald.decide", context: fanOut.context, from: start, to: self.decided, attributes: decided)

        let attempted = step.deliveries.filter { $0.channel == .push || $0.channel == .webhook }
        for (providerId, deliveries) in Dictionary(grouping: attempted, by: { $0.providerId ?? "" }) {
            var attributes = SpanAttributes()
            attributes["herald.provider"] =
                deliveries[0].channel == .webhook
                ? ProviderKind.custom.rawValue
                : deliveries[0].platform?.tokenKind.providerKind.rawValue ?? ""
            attributes["herald.provider.id"] = providerId
            attributes["herald.pushes"] = deliveries.count
            let outcomes = Dictionary(grouping: deliveries, by: \.status.rawValue).mapValues(\.count)
            attributes["herald.outcome"] =
                outcomes.count == 1 ? outcomes.keys.first! : outcomes.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
            EventTracing.span("herald.send", context: fanOut.context, from: self.decided, to: sent, attributes: attributes)
        }
        EventTracing.span("herald.record", context: fanOut.context, from: sent, to: recorded, attributes: [:])
        fanOut.end(at: recorded)
    }
}
