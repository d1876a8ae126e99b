import Foundation

public protocol ProviderRepository: Sendable {
    /// False if the app already has a provider with this id.
    func insertProvider(_ credential: ProviderCredential) async throws -> Bool
    func updateProvider(_ credential: ProviderCredential) async throws
    func provider(appId: String, providerId: String) async throws -> ProviderCredential?
    func providers(appId: String) async throws -> [ProviderCredential]
    func deleteProvider(appId: String, providerId: String, force: Bool) async throws -> ProviderDeletion
    /// Marks the credential unusable (a provider said so), unless it changed since `version`.
    func markProviderBroken(appId: String, providerId: String, reason: String, at: Date, version: Date) async throws
}
