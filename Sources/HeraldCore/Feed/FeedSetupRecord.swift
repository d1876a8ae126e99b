import Foundation
import HeraldModels

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
