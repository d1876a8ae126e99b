import Foundation

public protocol UnreadRepository: Sendable {
    /// Each user's unread counts, by conversation.
    func unreadCounts(appId: String, uids: [String]) async throws -> [String: [String: Int]]
}
