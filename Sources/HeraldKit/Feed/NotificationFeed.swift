import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HeraldModels

/// One item of the user's notification feed (CometChat Campaigns' `NotificationFeedItem`).
public struct NotificationFeedItem: Sendable, Equatable, Identifiable {
    public var id: String
    public var category: String?
    public var categoryId: String?
    public var channelId: String?
    public var campaignId: String?
    /// The card (Card Schema JSON).
    public var content: JSONObject
    public var readAt: Date?
    public var deliveredAt: Date?
    public var sentAt: Date?
    public var metadata: JSONObject
    public var tags: [String]
    public var sender: String
    public var receiver: String
    public var receiverType: String
    public var isRead: Bool
    public var pushNotificationId: String?

    /// The content as a typed card, to render with ``CardHTMLRenderer`` or natively.
    public var card: Card? { try? Card(json: content) }

    /// Reads an item as the API and the WebSocket's `feed_item` carry it.
    public init(json: JSONObject) throws(HeraldKitError) {
        guard let id = json["id"]?.stringValue, let content = json["content"]?.objectValue else {
            throw .invalidPayload("a feed item needs id and content")
        }
        self.id = id
        self.content = content
        category = json["category"]?.stringValue
        categoryId = json["categoryId"]?.stringValue
        channelId = json["channelId"]?.stringValue
        campaignId = json["campaignId"]?.stringValue
        readAt = json["readAt"]?.stringValue.flatMap(WireTimestamp.parse)
        deliveredAt = json["deliveredAt"]?.stringValue.flatMap(WireTimestamp.parse)
        sentAt = json["sentAt"]?.stringValue.flatMap(WireTimestamp.parse)
        metadata = json["metadata"]?.objectValue ?? [:]
        if case .array(let values)? = json["tags"] { tags = values.compactMap(\.stringValue) } else { tags = [] }
        sender = json["sender"]?.stringValue ?? ""
        receiver = json["receiver"]?.stringValue ?? ""
        receiverType = json["receiverType"]?.stringValue ?? "user"
        if case .bool(let read)? = json["isRead"] { isRead = read } else { isRead = readAt != nil }
        pushNotificationId = json["pushNotificationId"]?.stringValue
    }
}

/// A feed category (the label of a filter chip).
public struct NotificationCategory: Sendable, Equatable, Identifiable {
    public var id: String
    public var label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}

/// Which items to fetch (CometChat Campaigns' `FeedReadState`).
public enum FeedReadState: String, Sendable, CaseIterable {
    case read, unread
}

/// Pages through the signed-in user's feed, newest first. Build it with ``Builder``; each
/// ``fetchNext()`` returns the next page, and an empty array once the feed is exhausted.
///
/// ```swift
/// let request = NotificationFeedRequest.Builder().set(limit: 20).set(readState: .unread).set(categoryId: "promo").build(herald)
/// let page = try await request.fetchNext()
/// ```
public actor NotificationFeedRequest {
    public struct Filters: Sendable, Equatable {
        public var limit = 20
        public var readState: FeedReadState?
        public var category: String?
        /// Wins over ``category`` when both are set.
        public var categoryId: String?
        public var channelId: String?
        public var tags: [String] = []
        public var dateFrom: Date?
        public var dateTo: Date?

        var query: [URLQueryItem] {
            var items = [URLQueryItem(name: "limit", value: String(limit))]
            if let readState { items.append(URLQueryItem(name: "readState", value: readState.rawValue)) }
            if let categoryId { items.append(URLQueryItem(name: "categoryId", value: categoryId)) } else if let category {
                items.append(URLQueryItem(name: "category", value: category))
            }
            if let channelId { items.append(URLQueryItem(name: "channelId", value: channelId)) }
            if !tags.isEmpty { items.append(URLQueryItem(name: "tags", value: tags.joined(separator: ","))) }
            if let dateFrom { items.append(URLQueryItem(name: "dateFrom", value: WireTimestamp.format(dateFrom))) }
            if let dateTo { items.append(URLQueryItem(name: "dateTo", value: WireTimestamp.format(dateTo))) }
            return items
        }
    }

    /// Builds a request, one filter at a time (CometChat Campaigns' builder).
    public struct Builder: Sendable {
        public var filters = Filters()

        public init() {}

        public func set(limit: Int) -> Builder { with { $0.limit = limit } }
        public func set(readState: FeedReadState?) -> Builder { with { $0.readState = readState } }
        public func set(category: String?) -> Builder { with { $0.category = category } }
        public func set(categoryId: String?) -> Builder { with { $0.categoryId = categoryId } }
        public func set(channelId: String?) -> Builder { with { $0.channelId = channelId } }
        public func set(tags: [String]) -> Builder { with { $0.tags = tags } }
        public func set(dateFrom: Date?) -> Builder { with { $0.dateFrom = dateFrom } }
        public func set(dateTo: Date?) -> Builder { with { $0.dateTo = dateTo } }

        public func build(_ herald: Herald) -> NotificationFeedRequest {
            NotificationFeedRequest(herald: herald, filters: filters)
        }

        private func with(_ change: (inout Filters) -> Void) -> Builder {
            var copy = self
            change(&copy.filters)
            return copy
        }
    }

    public let filters: Filters
    let herald: Herald
    private var cursor: String?
    private var exhausted = false

    init(herald: Herald, filters: Filters) {
        self.herald = herald
        self.filters = filters
    }

    /// The next page; empty once there are no more items.
    public func fetchNext() async throws(HeraldKitError) -> [NotificationFeedItem] {
        guard !exhausted else { return [] }
        var query = filters.query
        if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
        let page = try await herald.userRequest("GET", "v1/me/feed", query: query)
        var items: [NotificationFeedItem] = []
        if case .array(let values)? = page["data"] {
            for value in values { items.append(try NotificationFeedItem(json: value.objectValue ?? [:])) }
        }
        cursor = page["nextCursor"]?.stringValue
        if cursor == nil { exhausted = true }
        return items
    }
}

/// Pages through the app's feed categories.
public actor NotificationCategoriesRequest {
    let herald: Herald
    let limit: Int
    private var cursor: String?
    private var exhausted = false

    public init(herald: Herald, limit: Int = 50) {
        self.herald = herald
        self.limit = limit
    }

    /// The next page; empty at the end.
    public func fetchNext() async throws(HeraldKitError) -> [NotificationCategory] {
        guard !exhausted else { return [] }
        var query = [URLQueryItem(name: "limit", value: String(limit))]
        if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
        let page = try await herald.userRequest("GET", "v1/me/feed/categories", query: query)
        cursor = page["nextCursor"]?.stringValue
        if cursor == nil { exhausted = true }
        guard case .array(let values)? = page["data"] else { return [] }
        return values.compactMap { value in
            guard let id = value.objectValue?["id"]?.stringValue, let label = value.objectValue?["label"]?.stringValue else { return nil }
            return NotificationCategory(id: id, label: label)
        }
    }
}

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
