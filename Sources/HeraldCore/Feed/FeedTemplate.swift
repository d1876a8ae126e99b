import Foundation
import HeraldModels

/// A card with `{{variables}}`, filled for each user when a campaign or item is sent.
public struct FeedTemplate: Sendable, Equatable {
    public var id: String
    public var name: String
    public var card: JSONValue
    public var categoryId: String?
    public var channelId: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, name: String, card: JSONValue, categoryId: String? = nil, channelId: String? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.card = card
        self.categoryId = categoryId
        self.channelId = channelId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension FeedTemplate {
    public var record: FeedSetupRecord {
        var body: JSONObject = ["name": .string(name), "card": card]
        if let categoryId { body["categoryId"] = .string(categoryId) }
        if let channelId { body["channelId"] = .string(channelId) }
        return FeedSetupRecord(kind: .template, id: id, body: body, createdAt: createdAt, updatedAt: updatedAt)
    }

    public init(_ record: FeedSetupRecord) {
        self.init(
            id: record.id,
            name: record.body["name"]?.stringValue ?? record.id,
            card: record.body["card"] ?? .object([:]),
            categoryId: record.body["categoryId"]?.stringValue,
            channelId: record.body["channelId"]?.stringValue,
            createdAt: record.createdAt,
            updatedAt: record.updatedAt
        )
    }
}
