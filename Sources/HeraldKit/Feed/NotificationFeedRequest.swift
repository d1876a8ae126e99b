import Foundation
import HeraldModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
            if let categoryId {
                items.append(URLQueryItem(name: "categoryId", value: categoryId))
            } else if let category {
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
