import Foundation
import HeraldModels

/// A user as payloads show them (CometChat iOS's `sender` dictionary).
public struct UserInfo: Sendable, Equatable {
    public var uid: String
    public var name: String
    public var avatar: String?
    public var status: String
    public var role: String
    public var lastActiveAt: Int

    public init(uid: String, name: String, avatar: String? = nil, status: String = "offline", role: String = "default", lastActiveAt: Int = 0) {
        self.uid = uid
        self.name = name
        self.avatar = avatar
        self.status = status
        self.role = role
        self.lastActiveAt = lastActiveAt
    }

    /// The synced user, with what the event said inline winning.
    public static func resolve(_ ref: PersonRef, synced: User?) -> UserInfo {
        UserInfo(
            uid: ref.uid,
            name: ref.name ?? synced?.name ?? ref.uid,
            avatar: ref.avatar ?? synced?.avatar,
            status: ref.status ?? "offline",
            role: ref.role ?? "default",
            lastActiveAt: ref.lastActiveAt ?? 0
        )
    }

    public var dictionary: JSONObject { JSONObjectBuilder.object { write(into: &$0) } }

    /// Adds the user's members to `sink`.
    public func write<Sink: JSONObjectSink>(into sink: inout Sink) {
        sink.member("uid", .string(uid))
        sink.member("name", .string(name))
        if let avatar { sink.member("avatar", .string(avatar)) }
        sink.member("status", .string(status))
        sink.member("role", .string(role))
        sink.member("lastActiveAt", .number(Double(lastActiveAt)))
    }
}
