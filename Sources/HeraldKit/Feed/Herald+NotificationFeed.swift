import Foundation
import HeraldModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Herald {
    /// One item by id (deep links from a push).
    public func notificationFeedItem(id: String) async throws(HeraldKitError) -> NotificationFeedItem {
        try NotificationFeedItem(json: try await userRequest("GET", "v1/me/feed/\(id)"))
    }

    /// Marks an item read (idempotent: the first time stays). Returns it as it now is.
    @discardableResult
    public func markFeedItemAsRead(_ id: String) async throws(HeraldKitError) -> NotificationFeedItem {
        try NotificationFeedItem(json: try await userRequest("POST", "v1/me/feed/\(id)/read"))
    }

    /// Marks an item delivered (idempotent).
    @discardableResult
    public func markFeedItemAsDelivered(_ id: String) async throws(HeraldKitError) -> NotificationFeedItem {
        try NotificationFeedItem(json: try await userRequest("POST", "v1/me/feed/\(id)/delivered"))
    }

    /// Records an interaction (`clicked`, a button's id…) once per item; returns whether it was new.
    @discardableResult
    public func reportFeedEngagement(_ id: String, interaction: String) async throws(HeraldKitError) -> Bool {
        let answer = try await userRequest("POST", "v1/me/feed/\(id)/engagements", body: .object(["interaction": .string(interaction)]))
        if case .bool(let recorded)? = answer["recorded"] { return recorded }
        return false
    }

    /// Unread items, optionally of one category (by id, or by label).
    public func notificationFeedUnreadCount(category: String? = nil, categoryId: String? = nil) async throws(HeraldKitError) -> Int {
        var query: [URLQueryItem] = []
        if let categoryId { query.append(URLQueryItem(name: "categoryId", value: categoryId)) }
        if let category { query.append(URLQueryItem(name: "category", value: category)) }
        let answer = try await userRequest("GET", "v1/me/feed/unread-count", query: query)
        guard case .number(let count)? = answer["unreadCount"] else { throw .invalidPayload("no unreadCount") }
        return Int(count)
    }
}
