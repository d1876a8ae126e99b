import Foundation
import HeraldModels

/// Reads Herald's push payloads into typed messages.
enum MessageParser {
    static func message(_ payload: JSONObject) throws(HeraldKitError) -> any BaseMessage {
        var payload = payload
        // An FCM data map may carry the fields as data inside a wrapper.
        if let data = payload["data"]?.objectValue, payload["type"] == nil, payload["sendbird"] == nil { payload = data }
        if (payload["cometchat"]?.objectValue ?? payload)["type"]?.stringValue == "business_messaging" {
            throw .notAMessage(kind: "business_messaging")
        }
        if let sendbird = object(payload["sendbird"]) { return try self.sendbird(sendbird, payload) }
        switch payload["type"]?.stringValue {
        case "call"?: return try call(payload)
        case "chat"?: return try chat(payload)
        case let other?: throw .notAMessage(kind: other)
        case nil: throw .invalidPayload("the push has no type")
        }
    }

    /// An object, or an object sent as JSON text (FCM data values are strings).
    static func object(_ value: JSONValue?) -> JSONObject? {
        switch value {
        case .object(let object)?: return object
        case .string(let text)?: return (try? JSONValue(jsonText: text))?.objectValue
        default: return nil
        }
    }

    static func string(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: return text
        case .number(let number)?: return number.rounded() == number ? String(Int64(number)) : String(number)
        default: return nil
        }
    }

    static func milliseconds(_ value: JSONValue?) -> Date? {
        guard let text = string(value), let ms = Double(text), ms > 0 else { return nil }
        return Date(timeIntervalSince1970: ms / 1000)
    }

    static func seconds(_ value: JSONValue?) -> Date? {
        guard let text = string(value), let seconds = Double(text), seconds > 0 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The alert's title and body: the payload's own fields, else `aps.alert`.
    static func texts(_ payload: JSONObject) -> (String?, String?) {
        let alert = payload["aps"]?.objectValue?["alert"]
        let title = payload["title"]?.stringValue ?? alert?.objectValue?["title"]?.stringValue
        let body = payload["body"]?.stringValue ?? alert?.objectValue?["body"]?.stringValue ?? alert?.stringValue
        return (title, body)
    }

    static func header(_ payload: JSONObject) throws(HeraldKitError) -> MessageHeader {
        guard let senderId = payload["sender"]?.stringValue, let receiverId = payload["receiver"]?.stringValue else {
            throw .invalidPayload("the push names no sender or receiver")
        }
        let sender = ChatUser(uid: senderId, name: payload["senderName"]?.stringValue ?? senderId, avatar: payload["senderAvatar"]?.stringValue)
        let receiver: MessageReceiver =
            payload["receiverType"]?.stringValue == "group"
            ? .group(
                ChatGroup(guid: receiverId, name: payload["receiverName"]?.stringValue ?? receiverId, icon: payload["receiverAvatar"]?.stringValue)
            )
            : .user(
                ChatUser(uid: receiverId, name: payload["receiverName"]?.stringValue ?? receiverId, avatar: payload["receiverAvatar"]?.stringValue)
            )
        let (title, body) = texts(payload)
        return MessageHeader(
            id: nil,
            muid: nil,
            sender: sender,
            receiver: receiver,
            conversationId: payload["conversationId"]?.stringValue ?? "",
            sentAt: milliseconds(payload["sentAt"]),
            title: title,
            body: body
        )
    }

    static func call(_ payload: JSONObject) throws(HeraldKitError) -> CallMessage {
        var header = try header(payload)
        header.id = payload["tag"]?.stringValue
        guard let sessionId = payload["sessionId"]?.stringValue, let action = payload["callAction"]?.stringValue else {
            throw .invalidPayload("a call push needs sessionId and callAction")
        }
        return CallMessage(header: header, sessionId: sessionId, type: payload["callType"]?.stringValue ?? "audio", callAction: action)
    }

    static func chat(_ payload: JSONObject) throws(HeraldKitError) -> any BaseMessage {
        var header = try header(payload)
        guard let message = object(payload["message"]) else {
            // No message object: a group action or a reaction, told by what it is about.
            let isGroupAction = header.receiverType == .group && payload["tag"]?.stringValue == header.receiver.id
            header.id = isGroupAction ? nil : payload["tag"]?.stringValue
            return ActionMessage(header: header, action: nil, message: header.body ?? "", type: isGroupAction ? "groupMember" : "reaction")
        }
        header.id = string(message["id"])
        header.muid = message["muid"]?.stringValue
        header.sentAt = seconds(message["sentAt"]) ?? header.sentAt
        header.editedAt = seconds(message["editedAt"])
        header.deletedAt = seconds(message["deletedAt"])
        if let sender = message["sender"]?.objectValue, let uid = sender["uid"]?.stringValue {
            header.sender = ChatUser(
                uid: uid,
                name: sender["name"]?.stringValue ?? header.sender.name,
                avatar: sender["avatar"]?.stringValue ?? header.sender.avatar,
                role: sender["role"]?.stringValue,
                status: sender["status"]?.stringValue
            )
        }
        if let conversation = message["conversationId"]?.stringValue { header.conversationId = conversation }
        let type = message["type"]?.stringValue ?? "text"
        let data = message["data"]?.objectValue ?? [:]
        switch message["category"]?.stringValue ?? "message" {
        case "custom":
            return CustomMessage(header: header, type: type, customData: message["customData"]?.objectValue ?? data["customData"]?.objectValue ?? [:])
        case "action":
            return ActionMessage(
                header: header,
                action: message["action"]?.stringValue ?? data["action"]?.stringValue,
                message: message["text"]?.stringValue ?? header.body ?? "",
                type: type
            )
        case "call":
            return CallMessage(
                header: header,
                sessionId: data["sessionId"]?.stringValue ?? header.id ?? "",
                type: type,
                callAction: data["action"]?.stringValue ?? "initiated"
            )
        default:
            if ["image", "video", "audio", "file"].contains(type) {
                return MediaMessage(
                    header: header,
                    type: type,
                    caption: message["text"]?.stringValue ?? message["caption"]?.stringValue,
                    url: data["url"]?.stringValue ?? message["url"]?.stringValue
                )
            }
            return TextMessage(header: header, text: message["text"]?.stringValue ?? header.body ?? "")
        }
    }

    /// Sendbird's `sendbird` object.
    static func sendbird(_ sendbird: JSONObject, _ payload: JSONObject) throws(HeraldKitError) -> any BaseMessage {
        guard let sender = sendbird["sender"]?.objectValue, let senderId = sender["id"]?.stringValue,
            let channel = sendbird["channel"]?.objectValue, let url = channel["channel_url"]?.stringValue
        else {
            throw .invalidPayload("a sendbird push needs sender and channel")
        }
        let user = ChatUser(
            uid: senderId,
            name: sender["name"]?.stringValue ?? senderId,
            avatar: sender["profile_url"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        )
        let receiver: MessageReceiver
        if sendbird["channel_type"]?.stringValue == "group_messaging" {
            let guid = url.hasPrefix("group_") ? String(url.dropFirst(6)) : url
            receiver = .group(ChatGroup(guid: guid, name: channel["name"]?.stringValue ?? guid))
        } else {
            let recipient = sendbird["recipient"]?.objectValue
            let uid = recipient?["id"]?.stringValue ?? ""
            receiver = .user(ChatUser(uid: uid, name: recipient?["name"]?.stringValue ?? uid))
        }
        let (title, alert) = texts(payload)
        let header = MessageHeader(
            id: string(sendbird["message_id"]),
            muid: nil,
            sender: user,
            receiver: receiver,
            conversationId: url,
            sentAt: milliseconds(sendbird["created_at"]),
            title: sendbird["push_title"]?.stringValue ?? payload["push_title"]?.stringValue ?? title,
            body: sendbird["push_alert"]?.stringValue ?? payload["message"]?.stringValue ?? alert
        )
        let text = sendbird["message"]?.stringValue ?? ""
        switch sendbird["type"]?.stringValue {
        case "FILE"?:
            let file: JSONValue? = { if case .array(let files)? = sendbird["files"] { return files.first } else { return nil } }()
            return MediaMessage(header: header, type: "file", caption: text, url: file?.objectValue?["url"]?.stringValue)
        case "ADMM"?:
            return ActionMessage(header: header, action: nil, message: text, type: sendbird["custom_type"]?.stringValue ?? "admin")
        default:
            if let custom = sendbird["custom_type"]?.stringValue, !custom.isEmpty {
                return CustomMessage(header: header, type: custom, customData: [:])
            }
            return TextMessage(header: header, text: text)
        }
    }
}
