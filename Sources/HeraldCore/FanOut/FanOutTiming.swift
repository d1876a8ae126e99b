import Foundation
import Tracing

/// How long a fan-out batch spent taking its events (from the hand-off or a claim), deciding,
/// sending and recording (for the metrics), and the
/// same instants on the tracer's clock when traces are on.
struct FanOutTiming {
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var takenAt: ContinuousClock.Instant
    private var decidedAt: ContinuousClock.Instant
    private var sentAt: ContinuousClock.Instant
    private var recordedAt: ContinuousClock.Instant
    let traced: TracedPhases?

    init() {
        started = clock.now
        takenAt = started
        decidedAt = started
        sentAt = started
        recordedAt = started
        traced = EventTracing.isOn ? TracedPhases(start: DefaultTracerClock.now) : nil
    }

    mutating func taken() {
        takenAt = clock.now
    }

    mutating func decided() {
        decidedAt = clock.now
        traced?.decided = DefaultTracerClock.now
    }

    mutating func sent() {
        sentAt = clock.now
        traced?.sent = DefaultTracerClock.now
    }

    mutating func recorded() {
        recordedAt = clock.now
        traced?.recorded = DefaultTracerClock.now
    }

    var take: Duration { takenAt - started }
    var decide: Duration { decidedAt - takenAt }
    var send: Duration { sentAt - decidedAt }
    var record: Duration { recordedAt - sentAt }
}
