import Foundation

/// What every recipient's decision asks of an app's credentials, worked out once per app: which
/// may carry a push (enabled and not set aside), and which of those are the app's own webhooks.
/// Asked of the credentials themselves, each recipient copied every credential it looked at
/// (measured: ~15 retains a 1:1 push, and a new array for the webhooks each time).
public struct UsableProviders: Sendable, Equatable {
    /// Credentials a push may go through.
    public var ids: Set<String>
    /// The usable custom providers (webhooks), sorted by id: every pushed recipient is posted to each.
    public var webhooks: [String]

    public init(_ providers: [String: ProviderCredential]) {
        var ids = Set<String>()
        var webhooks: [String] = []
        for (id, credential) in providers where credential.isUsable {
            ids.insert(id)
            if credential.kind == .custom { webhooks.append(credential.providerId) }
        }
        self.ids = ids
        self.webhooks = webhooks.sorted()
    }
}

extension ProviderCredential {
    /// Enabled and not set aside.
    var isUsable: Bool { config.enabled && !isBroken }
}
