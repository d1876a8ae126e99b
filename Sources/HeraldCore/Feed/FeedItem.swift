import Foundation
import HeraldModels

/// One card in one user's feed (CometChat Campaigns' `NotificationFeedItem`).
public struct FeedItem: Sendable, Equatable {
    public var id: String
    public var appId: String
    public var uid: String
    public var campaignId: String?
    public var channelId: String?
    public var categoryId: String?
    /// The category's label when the item was sent.
    public var category: String?
    public var content: JSONValue
    public var metadata: JSONObject
    public var tags: [String]
    public var sender: String
    public var sentAt: Date
    public var readAt: Date?
    public var deliveredAt: Date?
    /// The id of the item's push, for delivered/clicked tracking (CometChat Campaigns' `pushNotificationId`).
    public var pushNotificationId: String?
    public var pushTitle: String?
    public var pushBody: String?
    public var pushDeliveredAt: Date?
    public var pushClickedAt: Date?

    public init(
        id: String,
        appId: String,
        uid: String,
        campaignId: String? = nil,
        channelId: String? = nil,
        categoryId: String? = nil,
        category: String? = nil,
        content: JSONValue,
        metadata: JSONObject = [:],
        tags: [String] = [],
        sender: String,
        sentAt: Date,
        readAt: Date? = nil,
        deliveredAt: Date? = nil,
        pushNotificationId: String? = nil,
        pushTitle: String? = nil,
        pushBody: String? = nil,
        pushDeliveredAt: Date? = nil,
        pushClickedAt: Date? = nil
    ) {
        self.id = id
        self.appId = appId
        self.uid = uid
        self.campaignId = campaignId
        self.channelId = channelId
        self.categoryId = categoryId
        self.category = category
        self.content = content
        self.metadata = metadata
        self.tags = tags
        self.sender = sender
        self.sentAt = sentAt
        self.readAt = readAt
        self.deliveredAt = deliveredAt
        self.pushNotificationId = pushNotificationId
        self.pushTitle = pushTitle
        self.pushBody = pushBody
        self.pushDeliveredAt = pushDeliveredAt
        self.pushClickedAt = pushClickedAt
    }

    public static let idPrefix = "fit_"

    /// Whether an id names a feed item (`/dashboard/events/fit_…` links lead to the item's campaign).
    public static func isItemId(_ id: String) -> Bool { id.hasPrefix(idPrefix) }

    /// CometChat Campaigns: the receiver is the user, of type user.
    public var receiver: String { uid }
    public var receiverType: String { "user" }
    public var isRead: Bool { readAt != nil }
}
