/// What the engine reports as it works (Prometheus counters in the server).
public protocol EngineObserver: Sendable {
    /// A recipient's decision: `push`, `inapp`, or the skip reason.
    func decided(_ decision: String, eventType: String)
    /// A provider's verdict on one push (or a local one: expired, credential broken).
    func attempted(provider: String, outcome: String, reason: String?)
    func accepted(events: Int)
    /// One fan-out batch: how many events (pages), how long deciding, sending and recording took.
    func fannedOut(events: Int, decide: Duration, send: Duration, record: Duration)
}

extension EngineObserver {
    public func fannedOut(events: Int, decide: Duration, send: Duration, record: Duration) {}
}

public struct SilentObserver: EngineObserver {
    public init() {}
    public func decided(_ decision: String, eventType: String) {}
    public func attempted(provider: String, outcome: String, reason: String?) {}
    public func accepted(events: Int) {}
}
