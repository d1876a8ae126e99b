import Foundation

/// Bulk reads the fan-out needs.
public protocol RecipientDirectory: Sendable {
    func users(appId: String, uids: [String]) async throws -> [String: User]
    /// Every token of these users, by uid (each user's newest first; a user without one may be
    /// left out or given none).
    func tokens(appId: String, uids: [String]) async throws -> [String: [PushToken]]
    /// Each user's preferences, mutes, tokens and unread counts at once, by uid (a user with
    /// none of them may be left out).
    func records(appId: String, uids: [String]) async throws -> [String: RecipientRecord]
}
