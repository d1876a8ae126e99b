import Foundation
import HeraldModels

/// `GET /v1/me/feed`'s filters (CometChat Campaigns' `NotificationFeedRequest`).
public struct FeedQuery: Sendable, Equatable {
    public enum ReadState: String, Sendable, CaseIterable {
        case read, unread
    }

    public var limit: Int
    public var cursor: String?
    public var readState: ReadState?
    /// A category label; `categoryId` wins when both are given.
    public var category: String?
    public var categoryId: String?
    public var channelId: String?
    public var tags: [String]
    public var dateFrom: Date?
    public var dateTo: Date?

    public init(
        limit: Int = 20,
        cursor: String? = nil,
        readState: ReadState? = nil,
        category: String? = nil,
        categoryId: String? = nil,
        channelId: String? = nil,
        tags: [String] = [],
        dateFrom: Date? = nil,
        dateTo: Date? = nil
    ) {
        self.limit = limit
        self.cursor = cursor
        self.readState = readState
        self.category = category
        self.categoryId = categoryId
        self.channelId = channelId
        self.tags = tags
        self.dateFrom = dateFrom
        self.dateTo = dateTo
    }
}
