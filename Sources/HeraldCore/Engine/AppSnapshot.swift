import Foundation

/// An app as the engine needs it: settings, credentials by id, templates. A class, read-only:
/// a batch hands it to every event's plan and every push's send, and a copy is one reference, not
/// the dozen its app, credentials and templates hold. A change to the app makes a new snapshot.
public final class AppSnapshot: Sendable {
    public let app: App
    public let providers: [String: ProviderCredential]
    public let templates: [PushTemplate]
    /// The credentials a push may go through, as every recipient's decision asks (kept with `providers`).
    public let usable: UsableProviders

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
        usableIndex(providerId).map { providers.values[$0] }
    }

    /// The settings of the credential a delivery goes through, if it may be used: what a push is
    /// built with, read where the credential lies (a credential copied out of the dictionary
    /// retains each of its references, once for every push).
    public func usableSettings(_ providerId: String?) -> Result<ProviderSettings, FailureReason> {
        usableIndex(providerId).map { providers.values[$0].config.settings }
    }

    private func usableIndex(_ providerId: String?) -> Result<Dictionary<String, ProviderCredential>.Index, FailureReason> {
        guard let providerId, let index = providers.index(forKey: providerId) else { return .failure(.providerDeleted) }
        if let broken = providers.values[index].config.broken { return .failure(.credentialBroken(broken.reason)) }
        guard providers.values[index].config.enabled else { return .failure(.providerDisabled) }
        return .success(index)
    }
}
