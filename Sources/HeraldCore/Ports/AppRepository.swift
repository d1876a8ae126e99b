import Foundation

public protocol AppRepository: Sendable {
    func createApp(_ app: App, firstKeyId: String, keyHash: String) async throws
    func app(id: String) async throws -> App?
    func apps() async throws -> [App]
    func addKey(appId: String, keyId: String, keyHash: String, at: Date) async throws
    /// False if no such unrevoked key.
    func revokeKey(appId: String, keyId: String, at: Date) async throws -> Bool
    func keys(appId: String) async throws -> [APIKeyInfo]
    /// Unrevoked keys whose hash starts with these characters (`Credential.lookupPrefixLength`),
    /// with their app id; the caller compares the whole hash.
    func apiKeys(hashPrefix: String) async throws -> [HashedCredential<String>]
    func updateSettings(appId: String, settings: PushSettings) async throws
}
