import Foundation
import HeraldModels

extension Herald {
    /// The chat message a push announces (CometChat iOS), in either payload format Herald sends
    /// (`cometchat`, or `sendbird` — Sendbird): a ``TextMessage``, ``MediaMessage``,
    /// ``CustomMessage``, ``ActionMessage`` (group actions, reactions) or ``CallMessage``.
    /// Campaign pushes and silent session notices throw ``HeraldKitError/notAMessage(kind:)``.
    ///
    /// ```swift
    /// if let message = try? Herald.processMessage(userInfo) as? TextMessage { print(message.sender.name, message.text) }
    /// ```
    public static func processMessage(_ payload: [String: Any]) throws(HeraldKitError) -> any BaseMessage {
        try MessageParser.message(PayloadJSON.object(payload))
    }

    /// The conversation a tapped notification should open.
    public static func conversation(for payload: [String: Any]) throws(HeraldKitError) -> MessageReceiver {
        let message = try processMessage(payload)
        if case .group = message.receiver { return message.receiver }
        // A 1:1 conversation opens on the other person: the sender, seen from the recipient.
        return .user(message.sender)
    }
}

/// The call a push announces, with what CallKit needs at once (Kandy).
public struct CallPushInfo: Sendable, Equatable {
    /// Stable for a call: derived from its `sessionId`, so every push of one call names the same CallKit call.
    public var uuid: UUID
    public var sessionId: String
    public var callerId: String
    public var callerName: String
    public var callerAvatar: String?
    public var hasVideo: Bool
    /// `initiated`, `ongoing`, `ended`, `cancelled`, `rejected`, `busy`, `unanswered`.
    public var callAction: String
    public var receiverType: ReceiverType
    public var conversationId: String
    public var sentAt: Date?

    /// True while the call still rings: report it to CallKit; otherwise end it there.
    public var isIncoming: Bool { callAction == "initiated" }

    /// Reads a VoIP (PushKit) or alert push of a call.
    public init(payload: [String: Any]) throws(HeraldKitError) {
        guard let call = try Herald.processMessage(payload) as? CallMessage else { throw .notAMessage(kind: "not a call") }
        self.uuid = Self.uuid(forSession: call.sessionId)
        sessionId = call.sessionId
        callerId = call.sender.uid
        callerName = call.sender.name
        callerAvatar = call.sender.avatar
        hasVideo = call.type == "video"
        callAction = call.callAction
        receiverType = call.receiverType
        conversationId = call.conversationId
        sentAt = call.sentAt
    }

    /// A name-based UUID (version 5 layout over SHA-1-free FNV mixing, deterministic on every platform).
    public static func uuid(forSession sessionId: String) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in sessionId.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 ^ (a >> 29)
        }
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: a >> (index * 8))
            bytes[index + 8] = UInt8(truncatingIfNeeded: b >> (index * 8))
        }
        bytes[6] = (bytes[6] & 0x0f) | 0x50
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

/// `[String: Any]` (a push's `userInfo`, an FCM data map) as JSON.
enum PayloadJSON {
    static func object(_ payload: [String: Any]) -> JSONObject {
        payload.mapValues(value)
    }

    static func value(_ any: Any) -> JSONValue {
        switch any {
        case let text as String: return .string(text)
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .number(Double(number))
        case let number as Double: return .number(number)
        case let array as [Any]: return .array(array.map(value))
        case let object as [String: Any]: return .object(object.mapValues(value))
        case let object as [AnyHashable: Any]:
            var result: JSONObject = [:]
            for (key, item) in object { if let key = key.base as? String { result[key] = value(item) } }
            return .object(result)
        default: return .null
        }
    }
}

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
        let receiver: MessageReceiver = payload["receiverType"]?.stringValue == "group"
            ? .group(ChatGroup(guid: receiverId, name: payload["receiverName"]?.stringValue ?? receiverId, icon: payload["receiverAvatar"]?.stringValue))
            : .user(ChatUser(uid: receiverId, name: payload["receiverName"]?.stringValue ?? receiverId, avatar: payload["receiverAvatar"]?.stringValue))
        let (title, body) = texts(payload)
        return MessageHeader(id: nil, muid: nil, sender: sender, receiver: receiver,
                             conversationId: payload["conversationId"]?.stringValue ?? "", sentAt: milliseconds(payload["sentAt"]),
                             title: title, body: body)
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
            header.sender = ChatUser(uid: uid, name: sender["name"]?.stringValue ?? header.sender.name, avatar: sender["avatar"]?.stringValue ?? header.sender.avatar,
                                     role: sender["role"]?.stringValue, status: sender["status"]?.stringValue)
        }
        if let conversation = message["conversationId"]?.stringValue { header.conversationId = conversation }
        let type = message["type"]?.stringValue ?? "text"
        let data = message["data"]?.objectValue ?? [:]
        switch message["category"]?.stringValue ?? "message" {
        case "custom":
            return CustomMessage(header: header, type: type, customData: message["customData"]?.objectValue ?? data["customData"]?.objectValue ?? [:])
        case "action":
            return ActionMessage(header: header, action: message["action"]?.stringValue ?? data["action"]?.stringValue,
                                 message: message["text"]?.stringValue ?? header.body ?? "", type: type)
        case "call":
            return CallMessage(header: header, sessionId: data["sessionId"]?.stringValue ?? header.id ?? "", type: type,
                               callAction: data["action"]?.stringValue ?? "initiated")
        default:
            if ["image", "video", "audio", "file"].contains(type) {
                return MediaMessage(header: header, type: type, caption: message["text"]?.stringValue ?? message["caption"]?.stringValue,
                                    url: data["url"]?.stringValue ?? message["url"]?.stringValue)
            }
            return TextMessage(header: header, text: message["text"]?.stringValue ?? header.body ?? "")
        }
    }

    /// Sendbird's `sendbird` object.
    static func sendbird(_ sendbird: JSONObject, _ payload: JSONObject) throws(HeraldKitError) -> any BaseMessage {
        guard let sender = sendbird["sender"]?.objectValue, let senderId = sender["id"]?.stringValue,
              let channel = sendbird["channel"]?.objectValue, let url = channel["channel_url"]?.stringValue else {
            throw .invalidPayload("a sendbird push needs sender and channel")
        }
        let user = ChatUser(uid: senderId, name: sender["name"]?.stringValue ?? senderId,
                            avatar: sender["profile_url"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 })
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
        let header = MessageHeader(id: string(sendbird["message_id"]), muid: nil, sender: user, receiver: receiver, conversationId: url,
                                   sentAt: milliseconds(sendbird["created_at"]),
                                   title: sendbird["push_title"]?.stringValue ?? payload["push_title"]?.stringValue ?? title,
                                   body: sendbird["push_alert"]?.stringValue ?? payload["message"]?.stringValue ?? alert)
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
