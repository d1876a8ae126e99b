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

    /// What the event's kind says, read once here: every push, template and payload of the event
    /// asks for them, and reading one out of the event's body copies the whole message.
    public let receiverType: ReceiverType
    public let conversationId: String
    public let sentAt: Date
    /// The notification's `tag`: the message id (CometChat), the group for a group action.
    public let tag: String
    /// The message the event is about, when there is one: the message, the message reacted to,
    /// the call's message, the group action's message.
    public let messageId: String?
    /// What replaces an earlier notification: an edited message replaces its first notification.
    public let collapseId: String?

    public init(event: ChatEvent, app: App, sender: UserInfo, receiverUser: UserInfo? = nil, group: GroupInfo? = nil, target: UserInfo? = nil) {
        self.event = event
        self.app = app
        self.sender = sender
        self.receiverUser = receiverUser
        self.group = group
        self.target = target
        switch event.body {
        case .message(let m):
            let id = m.idText
            (receiverType, conversationId, sentAt) = (m.receiverType, m.conversationId, m.sentAt)
            (tag, messageId, collapseId) = (id, id, id.utf8.count <= 64 ? id : nil)
        case .call(let c):
            (receiverType, conversationId, sentAt) = (c.receiverType, c.conversationId, c.sentAt)
            (tag, messageId, collapseId) = (c.messageId ?? c.sessionId, c.messageId, c.sessionId.utf8.count <= 64 ? c.sessionId : nil)
        case .reaction(let r):
            (receiverType, conversationId, sentAt) = (r.receiverType, r.conversationId, r.sentAt)
            (tag, messageId, collapseId) = (r.messageId, r.messageId, nil)
        case .groupAction(let g):
            (receiverType, conversationId, sentAt) = (.group, g.conversationId, g.sentAt)
            (tag, messageId, collapseId) = (g.group.guid, g.id, nil)
        case .read(let r):
            (receiverType, conversationId, sentAt) = (.user, r.conversationId, r.readAt)
            (tag, messageId, collapseId) = (r.messageId ?? r.conversationId, r.messageId, nil)
        case .session(let s):
            (receiverType, conversationId, sentAt) = (.user, "", event.receivedAt)
            (tag, messageId, collapseId) = (s.sessionId, nil, nil)
        case .matrix(let push):
            (receiverType, conversationId, sentAt) = (.user, push.notification.roomId ?? "", event.receivedAt)
            (tag, messageId, collapseId) = (push.notification.eventId ?? push.pushkey, push.notification.eventId, nil)
        }
    }

    /// The template family: the event's kind.
    public var templateType: EventKind { event.kind }

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
