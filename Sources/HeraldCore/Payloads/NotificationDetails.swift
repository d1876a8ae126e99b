import Foundation
import HeraldModels

/// What every push of an event carries, whatever the provider: CometChat's notification details
/// (title, body, sender, receiver, tag, conversation, type, call fields, `sentAt` in milliseconds
/// as text, the message object when "Include message object" is on, and the app's custom JSON).
public enum NotificationDetails {
    public static func build(_ event: ResolvedEvent, text: RenderedText, settings: PushSettings, unread: Int?) -> JSONObject {
        var details: JSONObject = [
            "title": .string(text.title),
            "body": .string(text.body),
            "sender": .string(event.sender.uid),
            "senderName": .string(event.sender.name),
            "receiverType": .string(event.receiverType.rawValue),
            "tag": .string(event.tag),
            "conversationId": .string(event.conversationId),
            "type": .string(event.isCall ? "call" : "chat"),
            "sentAt": .string(String(event.sentAt.millisecondsSince1970)),
        ]
        if let avatar = event.sender.avatar { details["senderAvatar"] = .string(avatar) }
        if event.receiverType == .group, let group = event.group {
            details["receiver"] = .string(group.guid)
            details["receiverName"] = .string(group.name)
            if let icon = group.icon { details["receiverAvatar"] = .string(icon) }
        } else if let receiver = event.receiverUser {
            details["receiver"] = .string(receiver.uid)
            details["receiverName"] = .string(receiver.name)
            if let avatar = receiver.avatar { details["receiverAvatar"] = .string(avatar) }
        }
        if case .call(let call) = event.event.body {
            details["callAction"] = .string(call.callAction.rawValue)
            details["sessionId"] = .string(call.sessionId)
            details["callType"] = .string(call.callType.rawValue)
        }
        if settings.includeMessageObject, let message = messageObject(event, hideText: settings.hideMessageText) {
            details["message"] = .object(message)
        }
        if settings.includeConversationUnread, let unread { details["unreadCount"] = .number(Double(unread)) }
        if let custom = settings.customJSON { details["custom"] = .object(custom) }
        return details
    }

    /// CometChat iOS's `message` dictionary: the message with its sender as a user dictionary and its
    /// receiver as a uid (user message) or a group dictionary (group message).
    public static func messageObject(_ event: ResolvedEvent, hideText: Bool) -> JSONObject? {
        guard case .message(let m) = event.event.body else { return nil }
        var message: JSONObject = [
            "id": m.id,
            "category": .string(m.category),
            "type": .string(m.type),
            "sender": .object(event.sender.dictionary),
            "receiverType": .string(m.receiverType.rawValue),
            "sentAt": .number(Double(Int(m.sentAt.timeIntervalSince1970))),
            "deliveredAt": .number(0),
            "readAt": .number(0),
            "conversationId": .string(m.conversationId),
        ]
        if m.receiverType == .group, let group = event.group {
            message["receiver"] = .object(group.dictionary)
        } else {
            message["receiver"] = .string(m.receiver)
        }
        if let muid = m.muid { message["muid"] = .string(muid) }
        if let text = m.text, !hideText, m.action != .deleted { message["text"] = .string(text) }
        if let data = m.data, !hideText { message["data"] = .object(data) }
        if let metadata = m.metadata { message["metadata"] = .object(metadata) }
        if !m.mentions.isEmpty { message["mentions"] = .array(m.mentions.map { .string($0) }) }
        if let parentId = m.parentId { message["parentId"] = .string(parentId) }
        if m.action == .edited {
            message["editedAt"] = .number(Double(Int((m.editedAt ?? m.sentAt).timeIntervalSince1970)))
            if let by = m.editedBy ?? Optional(m.sender.uid) { message["editedBy"] = .string(by) }
        }
        if m.action == .deleted {
            message["deletedAt"] = .number(Double(Int((m.deletedAt ?? m.sentAt).timeIntervalSince1970)))
            if let by = m.deletedBy ?? Optional(m.sender.uid) { message["deletedBy"] = .string(by) }
        }
        return message
    }

    /// The details as FCM and HMS data want them: every value a string, objects as JSON text.
    public static func strings(_ details: JSONObject) -> [String: String] {
        details.mapValues { value in
            switch value {
            case .string(let text): text
            case .object, .array: (try? value.jsonText()) ?? ""
            default: value.text
            }
        }
    }
}
