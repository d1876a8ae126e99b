import Foundation
import HeraldModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
