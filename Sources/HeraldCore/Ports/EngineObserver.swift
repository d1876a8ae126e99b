/// What the engine reports as it works (Prometheus counters in the server).
public protocol EngineObserver: Sendable {
    /// Recipients of a batch decided alike: `push`, `inapp`, or the skip reason, and how many.
    func decided(_ decision: String, eventType: EventKind, count: Int)
    /// Pushes of a batch given the same verdict by their provider (or a local one: expired,
    /// credential broken), and how many.
    func attempted(provider: String, outcome: String, reason: String?, count: Int)
    func accepted(events: Int)
    /// One fan-out batch: how many events (pages), how long taking them (hand-off or claim),
    /// deciding, sending and recording took.
    func fannedOut(events: Int, take: Duration, decide: Duration, send: Duration, record: Duration)
    /// One batch of pushes through one credential had failures: how many, by outcome
    /// (`failed`, `retrying`, `expired`) and reason.
    func batchHadFailures(_ failures: [BatchFailure], appId: String, providerId: String, provider: String)
    /// A token the provider declared dead was removed.
    func tokenPruned(_ token: String, appId: String, providerId: String, reason: String)
    /// A credential the provider refused was set aside until it is changed.
    func credentialSetAside(appId: String, providerId: String, reason: String)
    /// How long a provider took to answer one push (`provider`: apns, fcm, hms, custom).
    func providerAnswered(provider: String, after latency: Duration)
}

extension EngineObserver {
    public func fannedOut(events: Int, take: Duration, decide: Duration, send: Duration, record: Duration) {}
    public func batchHadFailures(_ failures: [BatchFailure], appId: String, providerId: String, provider: String) {}
    public func tokenPruned(_ token: String, appId: String, providerId: String, reason: String) {}
    public func credentialSetAside(appId: String, providerId: String, reason: String) {}
    public func providerAnswered(provider: String, after latency: Duration) {}
}
