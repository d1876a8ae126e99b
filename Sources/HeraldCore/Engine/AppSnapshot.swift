import Foundation

/// An app as the engine needs it: settings, credentials by id, templates.
public struct AppSnapshot: Sendable {
    public var app: App
    public var providers: [String: ProviderCredential] {
        didSet { usable = UsableProviders(providers) }
    }
    public var templates: [PushTemplate]
    /// The credentials a push may go through, as every recipient's decision asks (kept with `providers`).
    public private(set) var usable: UsableProviders

    public init(app: App, providers: [String: ProviderCredential], templates: [PushTemplate]) {
        self.app = app
        self.providers = providers
        self.templates = templates
        self.usable = UsableProviders(providers)
    }

    public var settings: PushSettings { app.settings }

    /// The credential a delivery goes through, if it may be used: it exists, is enabled and was
    /// not set aside.
    public func usableCredential(_ providerId: String?) -> Result<ProviderCredential, FailureReason> {
        guard let providerId, let credential = providers[providerId] else { return .failure(.providerDeleted) }
        if let broken = credential.config.broken { return .failure(.credentialBroken(broken.reason)) }
        guard credential.config.enabled else { return .failure(.providerDisabled) }
        return .success(credential)
    }
}
