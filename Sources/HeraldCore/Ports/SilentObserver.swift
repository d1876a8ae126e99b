public struct SilentObserver: EngineObserver {
    public init() {}
    public func decided(_ decision: String, eventType: EventKind) {}
    public func attempted(provider: String, outcome: String, reason: String?) {}
    public func accepted(events: Int) {}
}
