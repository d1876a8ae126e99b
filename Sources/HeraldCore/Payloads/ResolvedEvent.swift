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
        UserInfo(uid: ref.uid, name: ref.name ?? synced?.name ?? ref.uid, avatar: ref.avatar ?? synced?.avatar,
                 status: ref.status ?? "offline", role: ref.role ?? "default", lastActiveAt: ref.lastActiveAt ?? 0)
    }

    public var dictionary: JSONObject {
        var object: JSONObject = ["uid": .string(uid), "name": .string(name), "status": .string(status), "role": .string(role),
                                  "lastActiveAt": .number(Double(lastActiveAt))]
        if let avatar { object["avatar"] = .string(avatar) }
        return object
    }
}

/// A group as payloads show it (CometChat iOS's group `receiver` dictionary).
public struct GroupInfo: Sendable, Equatable {
    public var guid: String
    public var name: String
    public var icon: String?
    public var type: String
    public var membersCount: Int
    public var owner: String?
    public var createdAt: Int

    public init(guid: String, name: String, icon: String? = nil, type: String = "public", membersCount: Int = 0, owner: String? = nil, createdAt: Int = 0) {
        self.guid = guid
        self.name = name
        self.icon = icon
        self.type = type
        self.membersCount = membersCount
        self.owner = owner
        self.createdAt = createdAt
    }

    public static func resolve(_ ref: GroupRef, synced: Group?) -> GroupInfo {
        GroupInfo(guid: ref.guid, name: ref.name ?? synced?.name ?? ref.guid, icon: ref.icon ?? synced?.icon,
                  type: ref.type ?? synced?.type.rawValue ?? "public", membersCount: ref.membersCount ?? synced?.membersCount ?? 0,
                  owner: ref.owner ?? synced?.owner, createdAt: ref.createdAt ?? synced.map { Int($0.createdAt.timeIntervalSince1970) } ?? 0)
    }

    public var dictionary: JSONObject {
        var object: JSONObject = ["guid": .string(guid), "name": .string(name), "type": .string(type),
                                  "membersCount": .number(Double(membersCount)), "createdAt": .number(Double(createdAt)), "hasJoined": .bool(true)]
        if let icon { object["icon"] = .string(icon) }
        if let owner { object["owner"] = .string(owner) }
        return object
    }
}

/// An event with the people and the group it names resolved: what templates and payloads are
/// made of. Built once per event, shared by all its recipients.
public struct ResolvedEvent: Sendable {
    public var event: ChatEvent
    public var app: App
    /// Who did it: the message sender, the caller, the reactor, the group-action actor.
    public var sender: UserInfo
    /// The other side of a user conversation (the message receiver; for a reaction, the reactor).
    public var receiverUser: UserInfo?
    public var group: GroupInfo?
    /// A group action's target.
    public var target: UserInfo?

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
        case .read, .session: .user
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
        }
    }

    public var sentAt: Date {
        switch event.body {
        case .message(let m): m.sentAt
        case .call(let c): c.sentAt
        case .reaction(let r): r.sentAt
        case .groupAction(let g): g.sentAt
        case .read(let r): r.readAt
        case .session: event.receivedAt
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
        let actor = sender.name, target = self.target?.name ?? ""
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
        case .read, .session:
            break
        }
        return context
    }
}

/// A notification's rendered text: title and body, and in localisation mode the keys and args.
public struct RenderedText: Sendable, Equatable {
    public var title: String
    public var body: String
    public var titleLocKey: String?
    public var titleLocArgs: [String]?
    public var locKey: String?
    public var locArgs: [String]?

    public init(title: String, body: String, titleLocKey: String? = nil, titleLocArgs: [String]? = nil, locKey: String? = nil, locArgs: [String]? = nil) {
        self.title = title
        self.body = body
        self.titleLocKey = titleLocKey
        self.titleLocArgs = titleLocArgs
        self.locKey = locKey
        self.locArgs = locArgs
    }

    /// Renders a template for an event. The localisation keys are the template's, else Kandy's
    /// (and Herald's for the kinds Kandy does not name).
    public static func render(_ template: PushTemplate, _ event: ResolvedEvent, hideText: Bool) -> RenderedText {
        let context = event.templateContext(hideText: hideText)
        let render = { (text: String) in TemplateRenderer.render(text, context) }
        var text = RenderedText(title: render(template.title), body: render(template.body))
        if template.titleLocKey != nil || template.bodyLocKey != nil {
            text.titleLocKey = template.titleLocKey.map(render)
            text.titleLocArgs = template.titleLocArgs?.map(render)
            text.locKey = template.bodyLocKey.map(render)
            text.locArgs = template.bodyLocArgs?.map(render)
        } else {
            (text.titleLocKey, text.titleLocArgs, text.locKey, text.locArgs) = LocalizationKeys.defaults(for: event)
        }
        return text
    }
}

/// Kandy's localisation keys: `chatMessageNotification_title` with the sender for a message,
/// `groupChatSessionInvitationNotification_title`/`_body` with the group for an invitation; and
/// keys of the same form for what Kandy does not cover.
public enum LocalizationKeys {
    public static func defaults(for event: ResolvedEvent) -> (titleKey: String?, titleArgs: [String]?, bodyKey: String?, bodyArgs: [String]?) {
        let sender = event.sender.name, group = event.group?.name ?? ""
        switch event.event.body {
        case .message(let m):
            return m.receiverType == .group
                ? ("groupChatMessageNotification_title", [sender, group], nil, nil)
                : ("chatMessageNotification_title", [sender], nil, nil)
        case .call(let c):
            return ("callNotification_title", [sender], c.callType == .video ? "videoCallNotification_body" : "audioCallNotification_body", [])
        case .reaction(let r):
            return ("reactionNotification_title", [sender], "reactionNotification_body", [r.reaction])
        case .groupAction(let g):
            if g.action == .added {
                return ("groupChatSessionInvitationNotification_title", nil, "groupChatSessionInvitationNotification_body", [group])
            }
            let action = g.action.rawValue.prefix(1).uppercased() + g.action.rawValue.dropFirst()
            return ("groupActionNotification_title", [group], "group\(action)Notification_body", [sender] + (event.target.map { [$0.name] } ?? []))
        case .read, .session:
            return (nil, nil, nil, nil)
        }
    }
}
