import Foundation

public protocol PushTokenRepository: Sendable {
    /// Registers or refreshes a token atomically: moves it from another user if needed, removes
    /// the user's other tokens of the same kind when `unique`, and evicts the least recently
    /// registered tokens beyond `maxPerUser`, also under concurrent registrations.
    func register(_ token: PushToken, unique: Bool, maxPerUser: Int) async throws -> TokenRegistration
    func tokens(appId: String, uid: String) async throws -> [PushToken]
    func tokens(appId: String, sessionId: String) async throws -> [PushToken]
    func deleteToken(appId: String, uid: String, token: String) async throws -> Bool
    func deleteTokens(appId: String, sessionId: String) async throws -> Int
    /// Removes a token the provider declared dead and records why and when. False if it was not registered.
    func prune(appId: String, token: String, reason: String, hint: String?, invalidSince: Date?, at: Date) async throws -> Bool
    func prunedTokens(appId: String, uid: String?, limit: Int) async throws -> [PrunedToken]
}
