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

/// A category: the label of a filter chip (CometChat Campaigns' `NotificationCategory`).
public struct FeedCategory: Sendable, Equatable {
    public var id: String
    public var label: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, label: String, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.label = label
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

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

/// The three kinds of feed set-up, stored alike: an id and a JSON body per app.
public enum FeedSetupKind: String, Sendable, CaseIterable {
    case channel, category, template
}

/// One stored set-up record.
public struct FeedSetupRecord: Sendable, Equatable {
    public var kind: FeedSetupKind
    public var id: String
    public var body: JSONObject
    public var createdAt: Date
    public var updatedAt: Date

    public init(kind: FeedSetupKind, id: String, body: JSONObject, createdAt: Date, updatedAt: Date) {
        self.kind = kind
        self.id = id
        self.body = body
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
        self.init(id: record.id, name: record.body["name"]?.stringValue ?? record.id, description: record.body["description"]?.stringValue,
                  createdAt: record.createdAt, updatedAt: record.updatedAt)
    }
}

extension FeedCategory {
    public var record: FeedSetupRecord {
        FeedSetupRecord(kind: .category, id: id, body: ["label": .string(label)], createdAt: createdAt, updatedAt: updatedAt)
    }

    public init(_ record: FeedSetupRecord) {
        self.init(id: record.id, label: record.body["label"]?.stringValue ?? record.id, createdAt: record.createdAt, updatedAt: record.updatedAt)
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
        self.init(id: record.id, name: record.body["name"]?.stringValue ?? record.id, card: record.body["card"] ?? .object([:]),
                  categoryId: record.body["categoryId"]?.stringValue, channelId: record.body["channelId"]?.stringValue,
                  createdAt: record.createdAt, updatedAt: record.updatedAt)
    }
}
