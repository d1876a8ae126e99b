public struct SilentObserver: EngineObserver {
    public init() {}
    public func decided(_ decision: String, eventType: EventKind, count: Int) {}
    public func attempted(provider: String, outcome: String, reason: String?, count: Int) {}
    public func accepted(events: Int) {}
}
