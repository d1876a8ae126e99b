import Foundation

/// App snapshots shared by the engine's workers. Reloaded every few seconds, so a changed setting
/// or credential takes effect without a restart; forgotten at once when the engine itself learns
/// of a change (a credential set aside, a provider saved).
public actor AppSnapshotCache {
    private let ports: EnginePorts
    private let maxAge: Duration
    private var apps: [String: (snapshot: AppSnapshot?, loaded: ContinuousClock.Instant)] = [:]

    public init(ports: EnginePorts, maxAge: Duration = .seconds(2)) {
        self.ports = ports
        self.maxAge = maxAge
    }

    /// The app, its providers and templates; nil if the app is gone.
    public func app(_ appId: String) async throws -> AppSnapshot? {
        if let cached = apps[appId], ContinuousClock.now - cached.loaded < maxAge { return cached.snapshot }
        guard let app = try await ports.apps.app(id: appId) else {
            apps[appId] = (nil, .now)
            return nil
        }
        let providers = try await ports.providers.providers(appId: appId)
        let snapshot = AppSnapshot(
            app: app,
            providers: Dictionary(providers.map { ($0.providerId, $0) }, uniquingKeysWith: { $1 }),
            templates: try await ports.templates.templates(appId: appId)
        )
        apps[appId] = (snapshot, .now)
        return snapshot
    }

    /// The snapshots of several apps; apps that are gone are left out.
    public func apps(_ appIds: some Sequence<String>) async throws -> [String: AppSnapshot] {
        var snapshots: [String: AppSnapshot] = [:]
        for appId in Set(appIds) {
            if let snapshot = try await app(appId) { snapshots[appId] = snapshot }
        }
        return snapshots
    }

    /// Forgets an app's snapshot (a credential broke, a template changed).
    public func invalidate(appId: String) {
        apps[appId] = nil
    }
}
