import Foundation
import HeraldModels

/// Reads one posted event (`POST /v1/events`) into an ``EventBody``. Every problem is an
/// `invalidField` naming the field's path (`events[3].message.sender`).
public enum EventParser {
    public struct Parsed: Sendable {
        public var clientId: String?
        public var body: EventBody
    }

    public static func parse(_ value: JSONValue, path: String = "", now: Date) throws -> Parsed {
        let event = try FieldReader(value, path: path)
        let clientId = try event.string("id", maxLength: 200)
        if let clientId { try Validate.text(clientId, field: event.field("id"), maxLength: 200) }
        let typeText = try event.string("type", required: true)!
        guard let kind = EventKind(rawValue: typeText), kind != .session else {
            throw HeraldError.invalidField(event.field("type"), "must be one of message, call, reaction, group_action, read")
        }
        let body: EventBody
        switch kind {
        case .message: body = .message(try message(event, now: now))
        case .call: body = .call(try call(event, now: now))
        case .reaction: body = .reaction(try reaction(event, now: now))
        case .groupAction: body = .groupAction(try groupAction(event, now: now))
        case .read: body = .read(try read(event, now: now))
        case .session: fatalError("refused above")
        }
        return Parsed(clientId: clientId, body: body)
    }

    static func message(_ event: FieldReader, now: Date) throws -> MessageEvent {
        let action = try event.enumeration("action", MessageEvent.Action.self) ?? .new
        guard let message = try event.object("message") else { throw HeraldError.invalidField(event.field("message"), "is required") }
        guard let id = message.raw("id") else { throw HeraldError.invalidField(message.field("id"), "is required (a string or a number)") }
        switch id {
        case .string(let text): try Validate.text(text, field: message.field("id"), maxLength: 200, required: true)
        case .number: break
        default: throw HeraldError.invalidField(message.field("id"), "must be a string or a number")
        }
        return try messageBody(message, id: id, action: action, event: event, now: now)
    }

    private static func messageBody(_ message: FieldReader, id: JSONValue, action: MessageEvent.Action, event: FieldReader, now: Date) throws -> MessageEvent {
        let sender = try message.person("sender", required: true)!
        let receiverType = try message.enumeration("receiverType", ReceiverType.self, required: true)!
        let (receiver, receiverUser, receiverGroup) = try receiverFields(message, type: receiverType)
        let category = try message.string("category") ?? "message"
        guard ["message", "action", "call", "custom", "interactive"].contains(category) else {
            throw HeraldError.invalidField(message.field("category"), "must be message, action, call, custom or interactive")
        }
        let type = try message.string("type") ?? "text"
        try Validate.text(type, field: message.field("type"), maxLength: 100, required: true)
        let text = try message.string("text", maxLength: 65_536)
        if let text { try Validate.text(text, field: message.field("text"), maxLength: 65_536) }
        let conversationId = try message.string("conversationId")
            ?? (receiverType == .user ? ConversationId.user(sender.uid, receiver) : ConversationId.group(receiver))
        let mentions = try message.strings("mentions", maxCount: 1_000) ?? []
        for (index, uid) in mentions.enumerated() { try Validate.identifier(uid, field: message.field("mentions[\(index)]")) }
        return MessageEvent(
            action: action, id: id, muid: try message.string("muid"), category: category, type: type, text: text,
            data: try message.object(limitedTo: "data"), metadata: try message.object(limitedTo: "metadata"),
            sender: sender, receiver: receiver, receiverUser: receiverUser, receiverGroup: receiverGroup, receiverType: receiverType,
            conversationId: conversationId, sentAt: try message.date("sentAt") ?? now, mentions: mentions,
            parentId: try message.scalarText("parentId"),
            suppressPush: try message.bool("suppressPush") ?? event.bool("suppressPush") ?? false,
            editedAt: try message.date("editedAt"), editedBy: try message.string("editedBy"),
            deletedAt: try message.date("deletedAt"), deletedBy: try message.string("deletedBy")
        )
    }

    static func call(_ event: FieldReader, now: Date) throws -> CallEvent {
        let sender = try event.person("sender", required: true)!
        let receiverType = try event.enumeration("receiverType", ReceiverType.self) ?? .user
        let (receiver, receiverUser, receiverGroup) = try receiverFields(event, type: receiverType)
        let sessionId = try event.string("sessionId", required: true)!
        try Validate.text(sessionId, field: event.field("sessionId"), maxLength: 200, required: true)
        return CallEvent(
            callAction: try event.enumeration("callAction", CallEvent.Action.self, required: true)!,
            sessionId: sessionId, callType: try event.enumeration("callType", CallEvent.CallType.self) ?? .audio,
            sender: sender, receiver: receiver, receiverUser: receiverUser, receiverGroup: receiverGroup, receiverType: receiverType,
            conversationId: try event.string("conversationId")
                ?? (receiverType == .user ? ConversationId.user(sender.uid, receiver) : ConversationId.group(receiver)),
            sentAt: try event.date("sentAt") ?? now, messageId: try event.scalarText("messageId")
        )
    }

    static func reaction(_ event: FieldReader, now: Date) throws -> ReactionEvent {
        let reaction = try event.string("reaction", required: true)!
        try Validate.text(reaction, field: event.field("reaction"), maxLength: 64, required: true)
        let reactor = try event.person("reactor", required: true)!
        let messageSender = try event.string("messageSender", required: true)!
        try Validate.identifier(messageSender, field: event.field("messageSender"))
        let receiverType = try event.enumeration("receiverType", ReceiverType.self) ?? .user
        let group = try event.group("group", required: receiverType == .group)
        guard let messageId = try event.scalarText("messageId") else { throw HeraldError.invalidField(event.field("messageId"), "is required") }
        return ReactionEvent(
            reaction: reaction, messageId: messageId, messageSender: messageSender, reactor: reactor, receiverType: receiverType, group: group,
            conversationId: try event.string("conversationId")
                ?? (receiverType == .user ? ConversationId.user(reactor.uid, messageSender) : ConversationId.group(group!.guid)),
            sentAt: try event.date("sentAt") ?? now
        )
    }

    static func groupAction(_ event: FieldReader, now: Date) throws -> GroupActionEvent {
        let action = try event.enumeration("action", GroupActionEvent.Action.self, required: true)!
        let needsTarget: Set<GroupActionEvent.Action> = [.kicked, .banned, .unbanned, .added]
        return GroupActionEvent(
            action: action, actor: try event.person("actor", required: true)!,
            target: try event.person("target", required: needsTarget.contains(action)),
            group: try event.group("group", required: true)!, sentAt: try event.date("sentAt") ?? now,
            id: try event.scalarText("messageId")
        )
    }

    static func read(_ event: FieldReader, now: Date) throws -> ReadEvent {
        let uid = try event.string("uid", required: true)!
        try Validate.identifier(uid, field: event.field("uid"))
        let conversationId = try event.string("conversationId", required: true)!
        try Validate.text(conversationId, field: event.field("conversationId"), maxLength: 250, required: true)
        return ReadEvent(uid: uid, conversationId: conversationId, messageId: try event.scalarText("messageId"), readAt: try event.date("readAt") ?? now)
    }

    private static func receiverFields(_ reader: FieldReader, type: ReceiverType) throws -> (String, PersonRef?, GroupRef?) {
        switch type {
        case .user:
            let user = try reader.person("receiver", required: true)!
            return (user.uid, user.name == nil && user.avatar == nil ? nil : user, nil)
        case .group:
            let group = try reader.group("receiver", required: true)!
            return (group.guid, nil, group.name == nil && group.icon == nil ? nil : group)
        }
    }
}

/// Typed reads of one JSON object, with errors naming `path.field`.
struct FieldReader {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue, path: String) throws {
        guard case .object(let object) = value else {
            throw HeraldError.invalidField(path.isEmpty ? "body" : path, "must be a JSON object")
        }
        self.object = object
        self.path = path
    }

    func field(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

    func raw(_ name: String) -> JSONValue? {
        guard let value = object[name], value != .null else { return nil }
        return value
    }

    func string(_ name: String, required: Bool = false, maxLength: Int = 200) throws -> String? {
        guard let value = raw(name) else {
            if required { throw HeraldError.invalidField(field(name), "is required") }
            return nil
        }
        guard case .string(let text) = value else { throw HeraldError.invalidField(field(name), "must be a string") }
        try Validate.text(text, field: field(name), maxLength: maxLength, required: required)
        return text
    }

    /// A string or a number, as text (ids that backends give either way).
    func scalarText(_ name: String) throws -> String? {
        guard let value = raw(name) else { return nil }
        switch value {
        case .string(let text):
            try Validate.text(text, field: field(name), maxLength: 200)
            return text
        case .number: return value.text
        default: throw HeraldError.invalidField(field(name), "must be a string or a number")
        }
    }

    func bool(_ name: String) throws -> Bool? {
        guard let value = raw(name) else { return nil }
        guard case .bool(let flag) = value else { throw HeraldError.invalidField(field(name), "must be true or false") }
        return flag
    }

    func object(_ name: String) throws -> FieldReader? {
        guard let value = raw(name) else { return nil }
        return try FieldReader(value, path: field(name))
    }

    /// A free-form object of at most 32 KB of JSON.
    func object(limitedTo name: String) throws -> JSONObject? {
        guard let value = raw(name) else { return nil }
        guard case .object(let object) = value else { throw HeraldError.invalidField(field(name), "must be a JSON object") }
        guard (try value.jsonText()).utf8.count <= 32_768 else { throw HeraldError.invalidField(field(name), "must be at most 32 KB of JSON") }
        return object
    }

    func strings(_ name: String, maxCount: Int) throws -> [String]? {
        guard let value = raw(name) else { return nil }
        guard case .array(let items) = value, items.count <= maxCount else {
            throw HeraldError.invalidField(field(name), "must be an array of at most \(maxCount) strings")
        }
        return try items.map { item in
            guard case .string(let text) = item else { throw HeraldError.invalidField(field(name), "must contain strings only") }
            return text
        }
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ name: String, _ type: E.Type, required: Bool = false) throws -> E? where E.RawValue == String {
        guard let text = try string(name, required: required) else { return nil }
        guard let value = E(rawValue: text) else {
            throw HeraldError.invalidField(field(name), "must be one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// Unix seconds, Unix milliseconds (13 digits, as CometChat writes `sentAt`), or ISO 8601.
    func date(_ name: String) throws -> Date? {
        guard let value = raw(name) else { return nil }
        switch value {
        case .number(let number):
            guard number > 0, number < 1e14 else { throw HeraldError.invalidField(field(name), "must be a Unix time") }
            return Date(timeIntervalSince1970: number >= 1e11 ? number / 1000 : number)
        case .string(let text):
            if let number = Double(text), number > 0, number < 1e14 { return Date(timeIntervalSince1970: number >= 1e11 ? number / 1000 : number) }
            if let date = ISO8601DateFormatter().date(from: text) { return date }
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = fractional.date(from: text) { return date }
            throw HeraldError.invalidField(field(name), "must be Unix seconds, milliseconds or an ISO 8601 time")
        default:
            throw HeraldError.invalidField(field(name), "must be Unix seconds, milliseconds or an ISO 8601 time")
        }
    }

    /// A uid, or a user object with `uid` and optional `name`, `avatar`, `status`, `role`, `lastActiveAt`.
    func person(_ name: String, required: Bool = false) throws -> PersonRef? {
        guard let value = raw(name) else {
            if required { throw HeraldError.invalidField(field(name), "is required") }
            return nil
        }
        if case .string(let uid) = value {
            try Validate.identifier(uid, field: field(name))
            return PersonRef(uid: uid)
        }
        let person = try FieldReader(value, path: field(name))
        let uid = try person.string("uid", required: true)!
        try Validate.identifier(uid, field: person.field("uid"))
        return PersonRef(
            uid: uid, name: try person.string("name"), avatar: try person.string("avatar", maxLength: 2_000),
            status: try person.string("status", maxLength: 50), role: try person.string("role", maxLength: 100),
            lastActiveAt: try person.date("lastActiveAt").map { Int($0.timeIntervalSince1970) }
        )
    }

    /// A guid, or a group object with `guid` and optional `name`, `icon`, `type`, `membersCount`, `owner`, `createdAt`.
    func group(_ name: String, required: Bool = false) throws -> GroupRef? {
        guard let value = raw(name) else {
            if required { throw HeraldError.invalidField(field(name), "is required") }
            return nil
        }
        if case .string(let guid) = value {
            try Validate.identifier(guid, field: field(name))
            return GroupRef(guid: guid)
        }
        let group = try FieldReader(value, path: field(name))
        let guid = try group.string("guid", required: true)!
        try Validate.identifier(guid, field: group.field("guid"))
        var membersCount: Int?
        if let count = group.raw("membersCount") {
            guard case .number(let number) = count, number >= 0 else { throw HeraldError.invalidField(group.field("membersCount"), "must be a number") }
            membersCount = Int(number)
        }
        return GroupRef(
            guid: guid, name: try group.string("name"), icon: try group.string("icon", maxLength: 2_000), type: try group.string("type", maxLength: 50),
            membersCount: membersCount, owner: try group.string("owner"), createdAt: try group.date("createdAt").map { Int($0.timeIntervalSince1970) }
        )
    }
}
