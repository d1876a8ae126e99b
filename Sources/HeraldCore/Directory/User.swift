import Foundation
import HeraldModels

/// A user of the integrator's chat app, synced into Herald.
public struct User: Sendable, Equatable {
    public var uid: String
    public var name: String
    public var avatar: String?
    public var metadata: JSONObject?
    public var tags: [String]
    public var locale: String?
    public var timeZone: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        uid: String,
        name: String,
        avatar: String? = nil,
        metadata: JSONObject? = nil,
        tags: [String] = [],
        locale: String? = nil,
        timeZone: String? = nil,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.uid = uid
        self.name = name
        self.avatar = avatar
        self.metadata = metadata
        self.tags = tags
        self.locale = locale
        self.timeZone = timeZone
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
