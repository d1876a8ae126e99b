import Foundation
import HeraldModels

public struct Group: Sendable, Equatable {
    public var guid: String
    public var name: String
    public var icon: String?
    public var type: GroupType
    /// Only for password groups; a salted hash, never returned.
    public var passwordHash: String?
    public var metadata: JSONObject?
    public var membersCount: Int
    /// The uid of the group's owner (CometChat iOS's group dictionary).
    public var owner: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        guid: String,
        name: String,
        icon: String? = nil,
        type: GroupType,
        passwordHash: String? = nil,
        metadata: JSONObject? = nil,
        membersCount: Int = 0,
        owner: String? = nil,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.owner = owner
        self.guid = guid
        self.name = name
        self.icon = icon
        self.type = type
        self.passwordHash = passwordHash
        self.metadata = metadata
        self.membersCount = membersCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
