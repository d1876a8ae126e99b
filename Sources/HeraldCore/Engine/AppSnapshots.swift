import Foundation

/// Apps as the engine needs them, read through the repositories (whose caches storage keeps
/// current: a changed setting, credential or template is seen by the next batch, in every process).
public struct AppSnapshots: Sendable {
    private let ports: EnginePorts

    public init(ports: EnginePorts) {
        self.ports = ports
    }

    /// The app, its providers and templates; nil if the app is gone.
    public func app(_ appId: String) async throws -> AppSnapshot? {
        guard let app = try await ports.apps.app(id: appId) else { return nil }
        async let providers = ports.providers.providers(appId: appId)
        async let templates = ports.templates.templates(appId: appId)
        return AppSnapshot(
            app: app,
            providers: Dictionary(try await providers.map { ($0.providerId, $0) }, uniquingKeysWith: { $1 }),
            templates: try await templates
        )
    }
}
