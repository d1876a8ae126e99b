import Foundation

public protocol UserRepository: Sendable {
    /// Creates or replaces the user; `createdAt` of an existing user is kept. Returns the stored user.
    func upsertUser(appId: String, _ user: User) async throws -> User
    /// Creates or replaces users in one transaction; existing users keep their `createdAt`.
    func upsertUsers(appId: String, _ users: [User]) async throws
    func user(appId: String, uid: String) async throws -> User?
    /// Deletes the user, their sessions, push tokens and memberships. False if there was no such user.
    func deleteUser(appId: String, uid: String) async throws -> Bool
    /// Users whose uid or name contains `query` (case-insensitive), by uid; all users when empty.
    func searchUsers(appId: String, query: String, limit: Int) async throws -> [User]
}
