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
        guard let kind = EventKind(rawValue: typeText), kind != .session, kind != .matrix else {
            throw HeraldError.invalidField(event.field("type"), "must be one of message, call, reaction, group_action, read")
        }
        let body: EventBody
        switch kind {
        case .message: body = .message(try message(event, now: now))
        case .call: body = .call(try call(event, now: now))
        case .reaction: body = .reaction(try reaction(event, now: now))
        case .groupAction: body = .groupAction(try groupAction(event, now: now))
        case .read: body = .read(try read(event, now: now))
        case .session, .matrix: fatalError("refused above")
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

    private static func messageBody(
        _ message: FieldReader,
        id: JSONValue,
        action: MessageEvent.Action,
        event: FieldReader,
        now: Date
    ) throws -> MessageEvent {
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
        let conversationId =
            try message.string("conversationId")
            ?? (receiverType == .user ? ConversationId.user(sender.uid, receiver) : ConversationId.group(receiver))
        let mentionsReader = message.raw("mentions") != nil ? message : event
        let mentions = try mentionsReader.strings("mentions", maxCount: 1_000) ?? []
        for (index, uid) in mentions.enumerated() { try Validate.identifier(uid, field: mentionsReader.field("mentions[\(index)]")) }
        return MessageEvent(
            .init(
                action: action,
                id: id,
                muid: try message.string("muid"),
                category: category,
                type: type,
                text: text,
                data: try message.object(limitedTo: "data"),
                metadata: try message.object(limitedTo: "metadata"),
                sender: sender,
                receiver: receiver,
                receiverUser: receiverUser,
                receiverGroup: receiverGroup,
                receiverType: receiverType,
                conversationId: conversationId,
                sentAt: try message.date("sentAt") ?? now,
                mentions: mentions,
                mentionsAll: try message.bool("mentionsAll") ?? event.bool("mentionsAll") ?? false,
                parentId: try message.scalarText("parentId"),
                suppressPush: try message.bool("suppressPush") ?? event.bool("suppressPush") ?? false,
                editedAt: try message.date("editedAt"),
                editedBy: try message.string("editedBy"),
                deletedAt: try message.date("deletedAt"),
                deletedBy: try message.string("deletedBy")
            )
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
            sessionId: sessionId,
            callType: try event.enumeration("callType", CallEvent.CallType.self) ?? .audio,
            sender: sender,
            receiver: receiver,
            receiverUser: receiverUser,
            receiverGroup: receiverGroup,
            receiverType: receiverType,
            conversationId: try event.string("conversationId")
                ?? (receiverType == .user ? ConversationId.user(sender.uid, receiver) : ConversationId.group(receiver)),
            sentAt: try event.date("sentAt") ?? now,
            messageId: try event.scalarText("messageId")
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
            reaction: reaction,
            messageId: messageId,
            messageSender: messageSender,
            reactor: reactor,
            receiverType: receiverType,
            group: group,
            conversationId: try event.string("conversationId")
                ?? (receiverType == .user ? ConversationId.user(reactor.uid, messageSender) : ConversationId.group(group!.guid)),
            sentAt: try event.date("sentAt") ?? now
        )
    }

    static func groupAction(_ event: FieldReader, now: Date) throws -> GroupActionEvent {
        let action = try event.enumeration("action", GroupActionEvent.Action.self, required: true)!
        let needsTarget: Set<GroupActionEvent.Action> = [.kicked, .banned, .unbanned, .added]
        return GroupActionEvent(
            action: action,
            actor: try event.person("actor", required: true)!,
            target: try event.person("target", required: needsTarget.contains(action)),
            group: try event.group("group", required: true)!,
            sentAt: try event.date("sentAt") ?? now,
            id: try event.scalarText("messageId")
        )
    }

    static func read(_ event: FieldReader, now: Date) throws -> ReadEvent {
        let uid = try event.string("uid", required: true)!
        try Validate.identifier(uid, field: event.field("uid"))
        let conversationId = try event.string("conversationId", required: true)!
        try Validate.text(conversationId, field: event.field("conversationId"), maxLength: 250, required: true)
        return ReadEvent(
            uid: uid,
            conversationId: conversationId,
            messageId: try event.scalarText("messageId"),
            readAt: try event.date("readAt") ?? now,
            sessionId: try event.string("sessionId")
        )
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
