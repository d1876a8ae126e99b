import Foundation
import HeraldModels

/// An event with the people and the group it names resolved: what templates and payloads are
/// made of. Built once per event, shared by all its recipients: a class, so that the push of
/// each recipient holds it by one reference instead of copying the event, the app and the people.
public final class ResolvedEvent: Sendable {
    public let event: ChatEvent
    public let app: App
    /// Who did it: the message sender, the caller, the reactor, the group-action actor.
    public let sender: UserInfo
    /// The other side of a user conversation (the message receiver; for a reaction, the reactor).
    public let receiverUser: UserInfo?
    public let group: GroupInfo?
    /// A group action's target.
    public let target: UserInfo?

    public init(event: ChatEvent, app: App, sender: UserInfo, receiverUser: UserInfo? = nil, group: GroupInfo? = nil, target: UserInfo? = nil) {
        self.event = event
        self.app = app
        self.sender = sender
        self.receiverUser = receiverUser
        self.group = group
        self.target = target
    }

    public var receiverType: ReceiverType {
        switch event.body {
        case .message(let m): m.receiverType
        case .call(let c): c.receiverType
        case .reaction(let r): r.receiverType
        case .groupAction: .group
        case .read, .session, .matrix: .user
        }
    }

    /// The template family: the event's kind.
    public var templateType: EventKind { event.kind }

    public var conversationId: String {
        switch event.body {
        case .message(let m): m.conversationId
        case .call(let c): c.conversationId
        case .reaction(let r): r.conversationId
        case .groupAction(let g): g.conversationId
        case .read(let r): r.conversationId
        case .session: ""
        case .matrix(let push): push.notification.roomId ?? ""
        }
    }

    public var sentAt: Date {
        switch event.body {
        case .message(let m): m.sentAt
        case .call(let c): c.sentAt
        case .reaction(let r): r.sentAt
        case .groupAction(let g): g.sentAt
        case .read(let r): r.readAt
        case .session, .matrix: event.receivedAt
        }
    }

    /// The notification's `tag`: the message id (CometChat), the group for a group action.
    public var tag: String {
        switch event.body {
        case .message(let m): m.idText
        case .call(let c): c.messageId ?? c.sessionId
        case .reaction(let r): r.messageId
        case .groupAction(let g): g.group.guid
        case .read(let r): r.messageId ?? r.conversationId
        case .session(let s): s.sessionId
        case .matrix(let push): push.notification.eventId ?? push.pushkey
        }
    }

    /// The message the event is about, when there is one: the message, the message reacted to,
    /// the call's message, the group action's message.
    public var messageId: String? {
        switch event.body {
        case .message(let m): m.idText
        case .call(let c): c.messageId
        case .reaction(let r): r.messageId
        case .groupAction(let g): g.id
        case .read(let r): r.messageId
        case .session: nil
        case .matrix(let push): push.notification.eventId
        }
    }

    /// What replaces an earlier notification: an edited message replaces its first notification.
    public var collapseId: String? {
        switch event.body {
        case .message(let m): m.idText.utf8.count <= 64 ? m.idText : nil
        case .call(let c): c.sessionId.utf8.count <= 64 ? c.sessionId : nil
        default: nil
        }
    }

    public var isCall: Bool { event.kind == .call }

    /// A message's text as a notification shows it: the text, or what kind of attachment it is.
    public func messagePreview(hideText: Bool) -> String {
        guard case .message(let m) = event.body else { return "" }
        if m.action == .deleted { return "This message was deleted" }
        if hideText { return "New message" }
        if let text = m.text, !text.isEmpty { return text }
        switch m.type {
        case "image": return "📷 Image"
        case "video": return "🎥 Video"
        case "audio": return "🎵 Audio"
        case "file": return "📎 File"
        default: return m.category == "custom" ? "Custom message" : "New message"
        }
    }

    /// "Andrew Joseph has left", "Andrew Joseph added George Alan", …
    public var actionText: String {
        guard case .groupAction(let g) = event.body else { return "" }
        let actor = sender.name
        let target = self.target?.name ?? ""
        switch g.action {
        case .joined: return "\(actor) has joined"
        case .left: return "\(actor) has left"
        case .kicked: return "\(actor) kicked \(target)"
        case .banned: return "\(actor) banned \(target)"
        case .unbanned: return "\(actor) unbanned \(target)"
        case .added: return "\(actor) added \(target)"
        }
    }

    /// The variables templates see.
    public func templateContext(hideText: Bool) -> [String: Any] {
        var context: [String: Any] = [
            "sender": ["uid": sender.uid, "name": sender.name, "avatar": sender.avatar ?? ""],
            "conversationId": conversationId,
            "app": ["id": app.id, "name": app.name],
        ]
        if let receiverUser { context["receiver"] = ["uid": receiverUser.uid, "name": receiverUser.name, "avatar": receiverUser.avatar ?? ""] }
        if let group {
            let groupContext: [String: Any] = ["guid": group.guid, "name": group.name, "icon": group.icon ?? "", "membersCount": group.membersCount]
            context["group"] = groupContext
            if receiverUser == nil { context["receiver"] = groupContext }
        }
        switch event.body {
        case .message(let m):
            context["message"] = [
                "id": m.idText, "text": hideText ? "New message" : (m.text ?? ""), "type": m.type, "category": m.category,
                "preview": messagePreview(hideText: hideText), "action": m.action.rawValue,
            ]
        case .call(let c):
            context["callType"] = c.callType.rawValue
            context["callAction"] = c.callAction.rawValue
        case .reaction(let r):
            context["reaction"] = r.reaction
            context["message"] = ["id": r.messageId]
        case .groupAction(let g):
            context["actor"] = context["sender"]
            if let target { context["target"] = ["uid": target.uid, "name": target.name, "avatar": target.avatar ?? ""] }
            context["action"] = g.action.rawValue
            context["actionText"] = actionText
        case .read, .session, .matrix:
            break
        }
        return context
    }
}
