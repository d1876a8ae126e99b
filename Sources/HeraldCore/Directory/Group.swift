import Foundation
import HeraldModels

public enum GroupType: String, Sendable, CaseIterable {
    case `public`
    case `private`
    case password
}

public enum MemberScope: String, Sendable, CaseIterable {
    case participant
    case moderator
    case admin
}

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
        guid: String, name: String, icon: String? = nil, type: GroupType, passwordHash: String? = nil,
        metadata: JSONObject? = nil, membersCount: Int = 0, owner: String? = nil, createdAt: Date, updatedAt: Date
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

public struct GroupInput: Sendable {
    public var name: String
    public var icon: String?
    public var type: String
    public var password: String?
    public var metadata: JSONObject?
    public var owner: String?

    public init(name: String, icon: String? = nil, type: String = "public", password: String? = nil, metadata: JSONObject? = nil, owner: String? = nil) {
        self.owner = owner
        self.name = name
        self.icon = icon
        self.type = type
        self.password = password
        self.metadata = metadata
    }
}

public struct GroupMember: Sendable, Equatable {
    public var uid: String
    public var scope: MemberScope
    public var joinedAt: Date

    public init(uid: String, scope: MemberScope, joinedAt: Date) {
        self.uid = uid
        self.scope = scope
        self.joinedAt = joinedAt
    }
}

/// What adding members did: new members, members whose scope was set again, uids that are not users.
public struct MembersAdded: Sendable, Equatable {
    public var added: Int
    public var updated: Int
    public var notFound: [String]

    public init(added: Int, updated: Int, notFound: [String]) {
        self.added = added
        self.updated = updated
        self.notFound = notFound
    }
}

/// One page of a cursor-paged list.
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// A page from `rows` read with a limit of `limit + 1`: the first `limit`, and a cursor at the
    /// last of them when there was more.
    public init(probed rows: [Item], limit: Int, key: (Item) -> String) {
        let items = Array(rows.prefix(limit))
        self.init(items: items, nextCursor: rows.count > limit ? items.last.map { Cursor.encode(key($0)) } : nil)
    }
}
