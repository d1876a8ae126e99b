import Foundation
import HeraldModels

/// A group as payloads show it (CometChat iOS's group `receiver` dictionary).
public struct GroupInfo: Sendable, Equatable {
    public var guid: String
    public var name: String
    public var icon: String?
    public var type: String
    public var membersCount: Int
    public var owner: String?
    public var createdAt: Int

    public init(
        guid: String,
        name: String,
        icon: String? = nil,
        type: String = "public",
        membersCount: Int = 0,
        owner: String? = nil,
        createdAt: Int = 0
    ) {
        self.guid = guid
        self.name = name
        self.icon = icon
        self.type = type
        self.membersCount = membersCount
        self.owner = owner
        self.createdAt = createdAt
    }

    public static func resolve(_ ref: GroupRef, synced: Group?) -> GroupInfo {
        GroupInfo(
            guid: ref.guid,
            name: ref.name ?? synced?.name ?? ref.guid,
            icon: ref.icon ?? synced?.icon,
            type: ref.type ?? synced?.type.rawValue ?? "public",
            membersCount: ref.membersCount ?? synced?.membersCount ?? 0,
            owner: ref.owner ?? synced?.owner,
            createdAt: ref.createdAt ?? synced.map { Int($0.createdAt.timeIntervalSince1970) } ?? 0
        )
    }

    public var dictionary: JSONObject { JSONObjectBuilder.object { write(into: &$0) } }

    /// Adds the group's members to `sink`.
    public func write<Sink: JSONObjectSink>(into sink: inout Sink) {
        sink.member("guid", .string(guid))
        sink.member("name", .string(name))
        if let icon { sink.member("icon", .string(icon)) }
        sink.member("type", .string(type))
        sink.member("membersCount", .number(Double(membersCount)))
        if let owner { sink.member("owner", .string(owner)) }
        sink.member("createdAt", .number(Double(createdAt)))
        sink.member("hasJoined", .bool(true))
    }
}
