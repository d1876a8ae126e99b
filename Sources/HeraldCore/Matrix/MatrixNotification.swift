import Foundation
import HeraldModels

/// A homeserver's notify (Matrix Push Gateway API v1, `POST /_matrix/push/v1/notify`): what
/// happened in a room, and the devices (pushers) to tell. Badge-only notifies carry no event.
public struct MatrixNotification: Codable, Sendable, Equatable {
    public var eventId: String?
    public var roomId: String?
    public var type: String?
    public var sender: String?
    public var senderDisplayName: String?
    public var roomName: String?
    public var roomAlias: String?
    public var userIsTarget: Bool?
    /// `high` (the default) or `low`.
    public var prio: String
    public var content: JSONObject?
    public var membership: String?
    public var unread: Int?
    public var missedCalls: Int?
    public var devices: [MatrixDevice]

    public init(
        eventId: String? = nil,
        roomId: String? = nil,
        type: String? = nil,
        sender: String? = nil,
        senderDisplayName: String? = nil,
        roomName: String? = nil,
        roomAlias: String? = nil,
        userIsTarget: Bool? = nil,
        prio: String = "high",
        content: JSONObject? = nil,
        membership: String? = nil,
        unread: Int? = nil,
        missedCalls: Int? = nil,
        devices: [MatrixDevice] = []
    ) {
        self.eventId = eventId
        self.roomId = roomId
        self.type = type
        self.sender = sender
        self.senderDisplayName = senderDisplayName
        self.roomName = roomName
        self.roomAlias = roomAlias
        self.userIsTarget = userIsTarget
        self.prio = prio
        self.content = content
        self.membership = membership
        self.unread = unread
        self.missedCalls = missedCalls
        self.devices = devices
    }

    /// The notification in the spec's wire form, without `devices` and `user_is_target`: the
    /// fields it has, `prio`, `content` and `counts`.
    public var wireFields: JSONObject {
        var object: JSONObject = ["prio": .string(prio)]
        let fields: [(String, String?)] = [
            ("event_id", eventId), ("room_id", roomId), ("type", type), ("sender", sender),
            ("sender_display_name", senderDisplayName), ("room_name", roomName), ("room_alias", roomAlias),
            ("membership", membership),
        ]
        for (key, value) in fields { if let value { object[key] = .string(value) } }
        if let content { object["content"] = .object(content) }
        var counts: JSONObject = [:]
        if let unread { counts["unread"] = .number(Double(unread)) }
        if let missedCalls { counts["missed_calls"] = .number(Double(missedCalls)) }
        if !counts.isEmpty { object["counts"] = .object(counts) }
        return object
    }

    /// The notify's body as the spec gives it; errors name the field (`notification.devices[0].pushkey`).
    public static func parse(_ body: JSONValue) throws -> MatrixNotification {
        guard case .object(let root) = body, case .object(let n)? = root["notification"] else {
            throw HeraldError.invalidField("notification", "is required: the body is {\"notification\": {…}}")
        }
        func string(_ key: String) throws -> String? {
            switch n[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw HeraldError.invalidField("notification.\(key)", "must be a string")
            }
        }
        var notification = MatrixNotification(
            eventId: try string("event_id"),
            roomId: try string("room_id"),
            type: try string("type"),
            sender: try string("sender"),
            senderDisplayName: try string("sender_display_name"),
            roomName: try string("room_name"),
            roomAlias: try string("room_alias"),
            prio: try string("prio") ?? "high",
            membership: try string("membership")
        )
        if case .bool(let value)? = n["user_is_target"] { notification.userIsTarget = value }
        switch n["content"] {
        case nil, .null?: break
        case .object(let content)?: notification.content = content
        default: throw HeraldError.invalidField("notification.content", "must be an object")
        }
        if case .object(let counts)? = n["counts"] {
            for (key, path) in [("unread", \MatrixNotification.unread), ("missed_calls", \MatrixNotification.missedCalls)] {
                switch counts[key] {
                case nil, .null?: break
                case .number(let value)? where value >= 0 && value.rounded() == value: notification[keyPath: path] = Int(value)
                default: throw HeraldError.invalidField("notification.counts.\(key)", "must be a whole number")
                }
            }
        }
        guard case .array(let devices)? = n["devices"], !devices.isEmpty else {
            throw HeraldError.invalidField("notification.devices", "must list at least one device")
        }
        notification.devices = try devices.enumerated().map { index, value in
            let path = "notification.devices[\(index)]"
            guard case .object(let device) = value else { throw HeraldError.invalidField(path, "must be an object") }
            guard case .string(let appId)? = device["app_id"], !appId.isEmpty else { throw HeraldError.invalidField(path + ".app_id", "is required") }
            guard case .string(let pushkey)? = device["pushkey"], !pushkey.isEmpty else {
                throw HeraldError.invalidField(path + ".pushkey", "is required")
            }
            var pushkeyTs: Int?
            if case .number(let ts)? = device["pushkey_ts"] { pushkeyTs = Int(ts) }
            return MatrixDevice(
                appId: appId,
                pushkey: pushkey,
                pushkeyTs: pushkeyTs,
                data: device["data"]?.objectValue ?? [:],
                tweaks: device["tweaks"]?.objectValue ?? [:]
            )
        }
        return notification
    }
}

/// One pusher of a notify: the app id the homeserver was given, the pushkey (a device token, a
/// Web Push key, or a UnifiedPush endpoint), the pusher's `data` (`format`, `default_payload`, …)
/// and the push rule's tweaks.
public struct MatrixDevice: Codable, Sendable, Equatable {
    public var appId: String
    public var pushkey: String
    public var pushkeyTs: Int?
    public var data: JSONObject
    public var tweaks: JSONObject

    public init(appId: String, pushkey: String, pushkeyTs: Int? = nil, data: JSONObject = [:], tweaks: JSONObject = [:]) {
        self.appId = appId
        self.pushkey = pushkey
        self.pushkeyTs = pushkeyTs
        self.data = data
        self.tweaks = tweaks
    }

    /// The pusher's `data.format`: `event_id_only` asks for ids only.
    public var eventIdOnly: Bool { data["format"]?.stringValue == "event_id_only" }
}
