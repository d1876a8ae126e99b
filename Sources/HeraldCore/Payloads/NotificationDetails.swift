import Foundation
import HeraldModels

/// What every push of an event carries, whatever the provider: CometChat's notification details
/// (title, body, sender, receiver, tag, conversation, type, call fields, `sentAt` in milliseconds
/// as text, the message object when "Include message object" is on, and the app's custom JSON).
///
/// Described once (``write(into:)``) and made two ways: ``object`` for the payloads that want a
/// dictionary (webhooks, FCM's and HMS's data), and written straight into an APNs payload's text,
/// where building a dictionary of some twenty values for each push only to encode and drop it
/// was a measured part of the server's CPU.
public struct NotificationDetails: Sendable {
    let event: ResolvedEvent
    let title: String
    let body: String
    let unread: Int?
    let includeMessageObject: Bool
    let hideMessageText: Bool
    let includeConversationUnread: Bool
    let custom: JSONObject?

    public init(_ event: ResolvedEvent, text: RenderedText, settings: PushSettings, unread: Int?) {
        self.event = event
        self.title = text.title
        self.body = text.body
        self.unread = unread
        self.includeMessageObject = settings.includeMessageObject
        self.hideMessageText = settings.hideMessageText
        self.includeConversationUnread = settings.includeConversationUnread
        self.custom = settings.customJSON
    }

    /// The details as a dictionary.
    public var object: JSONObject { JSONObjectBuilder.object { write(into: &$0) } }

    /// Adds the details' members to `sink`.
    public func write<Sink: JSONObjectSink>(into sink: inout Sink) {
        sink.member("title", .string(title))
        sink.member("body", .string(body))
        sink.member("sender", .string(event.sender.uid))
        sink.member("senderName", .string(event.sender.name))
        if let avatar = event.sender.avatar { sink.member("senderAvatar", .string(avatar)) }
        let receiverType = event.receiverType
        sink.member("receiverType", .string(receiverType.rawValue))
        if receiverType == .group, let group = event.group {
            sink.member("receiver", .string(group.guid))
            sink.member("receiverName", .string(group.name))
            if let icon = group.icon { sink.member("receiverAvatar", .string(icon)) }
        } else if let receiver = event.receiverUser {
            sink.member("receiver", .string(receiver.uid))
            sink.member("receiverName", .string(receiver.name))
            if let avatar = receiver.avatar { sink.member("receiverAvatar", .string(avatar)) }
        }
        sink.member("tag", .string(event.tag))
        sink.member("conversationId", .string(event.conversationId))
        sink.member("type", .string(event.isCall ? "call" : "chat"))
        sink.member("sentAt", .string(String(event.sentAt.millisecondsSince1970)))
        if case .call(let call) = event.event.body {
            sink.member("callAction", .string(call.callAction.rawValue))
            sink.member("sessionId", .string(call.sessionId))
            sink.member("callType", .string(call.callType.rawValue))
        }
        if includeMessageObject, case .message(let message) = event.event.body {
            sink.member("message") { Self.writeMessage(message, of: event, hideText: hideMessageText, into: &$0) }
        }
        if includeConversationUnread, let unread { sink.member("unreadCount", .number(Double(unread))) }
        if let custom { sink.member("custom", .object(custom)) }
    }

    /// CometChat iOS's `message` dictionary: the message with its sender as a user dictionary and its
    /// receiver as a uid (user message) or a group dictionary (group message).
    static func writeMessage<Sink: JSONObjectSink>(_ m: MessageEvent, of event: ResolvedEvent, hideText: Bool, into sink: inout Sink) {
        sink.member("id", m.id)
        sink.member("category", .string(m.category))
        sink.member("type", .string(m.type))
        sink.member("sender") { event.sender.write(into: &$0) }
        sink.member("receiverType", .string(m.receiverType.rawValue))
        if m.receiverType == .group, let group = event.group {
            sink.member("receiver") { group.write(into: &$0) }
        } else {
            sink.member("receiver", .string(m.receiver))
        }
        sink.member("sentAt", .number(Double(Int(m.sentAt.timeIntervalSince1970))))
        sink.member("deliveredAt", .number(0))
        sink.member("readAt", .number(0))
        sink.member("conversationId", .string(m.conversationId))
        if let muid = m.muid { sink.member("muid", .string(muid)) }
        if let text = m.text, !hideText, m.action != .deleted { sink.member("text", .string(text)) }
        if let data = m.data, !hideText { sink.member("data", .object(data)) }
        if let metadata = m.metadata { sink.member("metadata", .object(metadata)) }
        if !m.mentions.isEmpty { sink.member("mentions", .array(m.mentions.map { .string($0) })) }
        if let parentId = m.parentId { sink.member("parentId", .string(parentId)) }
        if m.action == .edited {
            sink.member("editedAt", .number(Double(Int((m.editedAt ?? m.sentAt).timeIntervalSince1970))))
            sink.member("editedBy", .string(m.editedBy ?? m.sender.uid))
        }
        if m.action == .deleted {
            sink.member("deletedAt", .number(Double(Int((m.deletedAt ?? m.sentAt).timeIntervalSince1970))))
            sink.member("deletedBy", .string(m.deletedBy ?? m.sender.uid))
        }
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
