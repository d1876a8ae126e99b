import Foundation
import ServiceContextModule
import Tracing

/// An event's trace: the W3C `traceparent` of the request that posted it is kept with the event
/// (in the hand-off and in the events table), so that its fan-out and pushes — in this process
/// or, after a restart, another — join the request's trace. With no tracer bootstrapped (the
/// default: `HERALD_OTEL_ENDPOINT` unset) every call here does nothing.
public enum EventTracing {
    /// The current task's trace as a `traceparent` header value, if it has one.
    public static func currentTraceParent() -> String? {
        guard let context = ServiceContext.current else { return nil }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: HeaderInjector())
        return carrier["traceparent"]
    }

    /// The context an event's spans are children of.
    public static func context(traceParent: String?) -> ServiceContext {
        var context = ServiceContext.topLevel
        if let traceParent {
            InstrumentationSystem.instrument.extract(["traceparent": traceParent], into: &context, using: HeaderExtractor())
        }
        return context
    }

    /// A span of work already done, between two instants: the fan-out times its phases once for
    /// a whole batch and gives each event its part afterwards.
    public static func span(
        _ name: String,
        context: ServiceContext,
        from start: DefaultTracerClock.Instant,
        to end: DefaultTracerClock.Instant,
        attributes: SpanAttributes
    ) {
        let span = InstrumentationSystem.tracer.startSpan(name, context: context, ofKind: .internal, at: start)
        span.attributes = attributes
        span.end(at: end)
    }

    struct HeaderInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
    }

    struct HeaderExtractor: Extractor {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    }
}

extension EventTracing {
    /// Whether a tracer is bootstrapped (else the fan-out makes no spans at all).
    public static var isOn: Bool { !(InstrumentationSystem.tracer is NoOpTracer) }
}
