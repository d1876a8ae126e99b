import Foundation

/// Bulk reads the fan-out needs.
public protocol RecipientDirectory: Sendable {
    func users(appId: String, uids: [String]) async throws -> [String: User]
    /// Every token of these users.
    func tokens(appId: String, uids: [String]) async throws -> [PushToken]
}
