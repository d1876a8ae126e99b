import Foundation
import HeraldModels

/// Sendbird's `sendbird` object, for teams moving from Sendbird (`payloadFormat: sendbird`).
public enum SendbirdPayload {
    public static func object(_ context: PushContext) -> JSONObject {
        let event = context.event
        var object: JSONObject = [
            "category": .string("messaging:offline_notification"),
            "app_id": .string(event.app.id),
            "created_at": .number(Double(event.sentAt.millisecondsSince1970)),
            "push_title": .string(context.text.title),
            "push_alert": .string(context.text.body),
            "push_sound": .string("default"),
            "audience_type": .string("only"),
            "translations": .object([:]),
            "files": .array([]),
            "unread_message_count": .number(Double(context.badge ?? 0)),
            "sender": .object([
                "id": .string(event.sender.uid), "name": .string(event.sender.name), "profile_url": .string(event.sender.avatar ?? ""),
                "require_auth_for_profile_image": .bool(false), "metadata": .object([:]),
            ]),
        ]
        var channel: JSONObject = ["channel_url": .string(event.conversationId), "custom_type": .string("")]
        if let group = event.group {
            channel["name"] = .string(group.name)
            object["channel_type"] = .string("group_messaging")
        } else {
            channel["name"] = .string(event.sender.name)
            object["channel_type"] = .string("messaging")
        }
        if let unread = context.unread { channel["channel_unread_count"] = .number(Double(unread)) }
        object["channel"] = .object(channel)
        if let receiver = event.receiverUser, event.receiverType == .user {
            object["recipient"] = .object(["id": .string(receiver.uid), "name": .string(receiver.name)])
        }
        switch event.event.body {
        case .message(let m):
            object["type"] = .string(m.category == "action" ? "ADMM" : ["image", "video", "audio", "file"].contains(m.type) ? "FILE" : "MESG")
            object["message"] = .string(context.settings.hideMessageText ? "New message" : (m.text ?? event.messagePreview(hideText: false)))
            object["custom_type"] = .string(m.category == "custom" ? m.type : "")
            if case .number(let number) = m.id { object["message_id"] = .number(number) } else { object["message_id"] = .string(m.idText) }
            if let url = m.data?["url"], case .string = url { object["files"] = .array([.object(["url": url])]) }
            object["mentioned_users"] = .array(
                m.mentions.map { uid in
                    .object([
                        "user_id": .string(uid), "nickname": .string(uid), "profile_url": .string(""), "require_auth_for_profile_image": .bool(false),
                    ])
                }
            )
        default:
            object["type"] = .string("ADMM")
            object["message"] = .string(context.text.body)
            object["custom_type"] = .string(event.event.kind.rawValue)
            object["message_id"] = .string(event.tag)
            object["mentioned_users"] = .array([])
        }
        return object
    }
}
