import Foundation
import HeraldModels

/// A feed channel (CometChat Campaigns' dashboard set-up): where items are published.
public struct FeedChannel: Sendable, Equatable {
    public var id: String
    public var name: String
    public var description: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, name: String, description: String? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.description = description
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension FeedChannel {
    public var record: FeedSetupRecord {
        var body: JSONObject = ["name": .string(name)]
        if let description { body["description"] = .string(description) }
        return FeedSetupRecord(kind: .channel, id: id, body: body, createdAt: createdAt, updatedAt: updatedAt)
    }

    public init(_ record: FeedSetupRecord) {
        self.init(
            id: record.id,
            name: record.body["name"]?.stringValue ?? record.id,
            description: record.body["description"]?.stringValue,
            createdAt: record.createdAt,
            updatedAt: record.updatedAt
        )
    }
}
