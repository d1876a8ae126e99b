import Foundation
import HeraldModels

/// A group as an event names it.
public struct GroupRef: Codable, Sendable, Equatable {
    public var guid: String
    public var name: String?
    public var icon: String?
    public var type: String?
    public var membersCount: Int?
    public var owner: String?
    public var createdAt: Int?

    public init(
        guid: String,
        name: String? = nil,
        icon: String? = nil,
        type: String? = nil,
        membersCount: Int? = nil,
        owner: String? = nil,
        createdAt: Int? = nil
    ) {
        self.guid = guid
        self.name = name
        self.icon = icon
        self.type = type
        self.membersCount = membersCount
        self.owner = owner
        self.createdAt = createdAt
    }
}
