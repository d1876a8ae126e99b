import Foundation
import HeraldModels

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

extension FeedCategory {
    public var record: FeedSetupRecord {
        FeedSetupRecord(kind: .category, id: id, body: ["label": .string(label)], createdAt: createdAt, updatedAt: updatedAt)
    }

    public init(_ record: FeedSetupRecord) {
        self.init(id: record.id, label: record.body["label"]?.stringValue ?? record.id, createdAt: record.createdAt, updatedAt: record.updatedAt)
    }
}
