import Foundation
import HeraldModels

/// What a chat backend tells Herald happened (`POST /v1/events`), once accepted: stored as is,
/// then fanned out to its recipients.
public struct ChatEvent: Sendable, Equatable {
    public var id: String
    public var appId: String
    /// The integrator's own id, which makes a post idempotent.
    public var clientId: String?
    public var receivedAt: Date
    public var body: EventBody
    /// The event as posted, which is what storage keeps: parsing it again with the time it was
    /// received gives the same body, for a fraction of the cost of encoding the body. Nil for
    /// Herald's own events (a session's end), which are stored encoded.
    public var posted: JSONValue?
    /// The W3C `traceparent` of the request that posted it, when it was traced.
    public var traceParent: String?

    public init(id: String, appId: String, clientId: String?, receivedAt: Date, body: EventBody, posted: JSONValue? = nil, traceParent: String? = nil) {
        self.id = id
        self.appId = appId
        self.clientId = clientId
        self.receivedAt = receivedAt
        self.body = body
        self.posted = posted
        self.traceParent = traceParent
    }

    /// An event read back from storage: `text` is either the event as posted or the body encoded.
    public static func stored(id: String, appId: String, clientId: String?, receivedAt: Date, text: String, traceParent: String? = nil,
                              decode: (String) throws -> EventBody) throws -> ChatEvent {
        let value = try JSONValue(jsonText: text)
        if case .object(let object) = value, case .string = object["type"] {
            let body = try EventParser.parse(value, now: receivedAt).body
            return ChatEvent(id: id, appId: appId, clientId: clientId, receivedAt: receivedAt, body: body, posted: value, traceParent: traceParent)
        }
        return ChatEvent(id: id, appId: appId, clientId: clientId, receivedAt: receivedAt, body: try decode(text), traceParent: traceParent)
    }

    public var kind: EventKind { body.kind }

    /// The event as the API shows it (`GET /v1/events/{eventId}`): what the backend posted, as it
    /// posted it; Herald's own session events, which nobody posted, as
    /// `{"type":"session","uid","sessionId","reason","devices":[{"providerId","platform"}]}`
    /// (the devices' tokens are not repeated there: the delivery log names each target).
    public var publicJSON: JSONValue {
        if let posted { return posted }
        switch body {
        case .session(let session):
            return .object([
                "type": .string(EventKind.session.rawValue), "uid": .string(session.uid), "sessionId": .string(session.sessionId),
                "reason": .string(session.reason),
                "devices": .array(session.devices.map { .object(["providerId": .string($0.providerId), "platform": .string($0.platform.rawValue)]) }),
            ])
        default:
            // Every other kind is stored as posted; this is only reached by events made in code.
            return .object(["type": .string(kind.rawValue)])
        }
    }
}

public enum EventKind: String, Codable, Sendable, CaseIterable {
    case message
    case call
    case reaction
    case groupAction = "group_action"
    case read
    /// Herald's own: a session was revoked or expired (silent push to its devices).
    case session
}

extension EventKind: CodingKeyRepresentable {
    /// The kinds a user is told of, each with its own templates and preference switch (a read
    /// and Herald's own session events are not notifications).
    public static let notifiable: [EventKind] = [.message, .call, .reaction, .groupAction]

    /// A notifiable kind by its wire name, or an error naming `field` and the names it takes.
    public static func notifiable(_ name: String, field: String) throws -> EventKind {
        guard let kind = EventKind(rawValue: name), notifiable.contains(kind) else {
            throw HeraldError.invalidField(field, "is not an event type; use \(notifiable.map(\.rawValue).joined(separator: ", "))")
        }
        return kind
    }
}

public enum ReceiverType: String, Codable, Sendable, CaseIterable {
    case user
    case group
}

/// A user as an event names them: the uid, and whatever the event says of them inline (which wins
/// over the synced user).
public struct PersonRef: Codable, Sendable, Equatable {
    public var uid: String
    public var name: String?
    public var avatar: String?
    public var status: String?
    public var role: String?
    public var lastActiveAt: Int?

    public init(uid: String, name: String? = nil, avatar: String? = nil, status: String? = nil, role: String? = nil, lastActiveAt: Int? = nil) {
        self.uid = uid
        self.name = name
        self.avatar = avatar
        self.status = status
        self.role = role
        self.lastActiveAt = lastActiveAt
    }
}

/// A group as an event names it.
public struct GroupRef: Codable, Sendable, Equatable {
    public var guid: String
    public var name: String?
    public var icon: String?
    public var type: String?
    public var membersCount: Int?
    public var owner: String?
    public var createdAt: Int?

    public init(guid: String, name: String? = nil, icon: String? = nil, type: String? = nil, membersCount: Int? = nil, owner: String? = nil, createdAt: Int? = nil) {
        self.guid = guid
        self.name = name
        self.icon = icon
        self.type = type
        self.membersCount = membersCount
        self.owner = owner
        self.createdAt = createdAt
    }
}

public enum EventBody: Codable, Sendable, Equatable {
    case message(MessageEvent)
    case call(CallEvent)
    case reaction(ReactionEvent)
    case groupAction(GroupActionEvent)
    case read(ReadEvent)
    case session(SessionEvent)

    public var kind: EventKind {
        switch self {
        case .message: .message
        case .call: .call
        case .reaction: .reaction
        case .groupAction: .groupAction
        case .read: .read
        case .session: .session
        }
    }
}

/// A message, new, edited or deleted, in CometChat iOS's shape.
public struct MessageEvent: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable, CaseIterable {
        case new, edited, deleted
    }

    public var action: Action
    /// The message id as the chat backend gave it (CometChat iOS shows a number).
    public var id: JSONValue
    public var muid: String?
    /// `message`, `action`, `call` or `custom`.
    public var category: String
    /// `text`, `image`, `video`, `audio`, `file`, or a custom type.
    public var type: String
    public var text: String?
    public var data: JSONObject?
    public var metadata: JSONObject?
    public var sender: PersonRef
    public var receiver: String
    public var receiverUser: PersonRef?
    public var receiverGroup: GroupRef?
    public var receiverType: ReceiverType
    public var conversationId: String
    public var sentAt: Date
    public var mentions: [String]
    public var parentId: String?
    public var suppressPush: Bool
    public var editedAt: Date?
    public var editedBy: String?
    public var deletedAt: Date?
    public var deletedBy: String?

    /// The message id as text (the notification `tag`, the collapse id).
    public var idText: String { id.text }
}

public struct CallEvent: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable, CaseIterable {
        case initiated, cancelled, unanswered, ongoing, rejected, ended, busy
    }

    public enum CallType: String, Codable, Sendable, CaseIterable {
        case audio, video
    }

    public var callAction: Action
    public var sessionId: String
    public var callType: CallType
    public var sender: PersonRef
    public var receiver: String
    public var receiverUser: PersonRef?
    public var receiverGroup: GroupRef?
    public var receiverType: ReceiverType
    public var conversationId: String
    public var sentAt: Date
    /// The call message's id when the backend has one; the call session id otherwise.
    public var messageId: String?
}

/// Someone reacted to a message; its sender is told (CometChat: "Reacted to your message: 😎").
public struct ReactionEvent: Codable, Sendable, Equatable {
    public var reaction: String
    public var messageId: String
    /// The sender of the message reacted to: the one who is told.
    public var messageSender: String
    public var reactor: PersonRef
    /// Where the message is: a user conversation (with the reactor) or a group.
    public var receiverType: ReceiverType
    public var group: GroupRef?
    public var conversationId: String
    public var sentAt: Date
}

public struct GroupActionEvent: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable, CaseIterable {
        case joined, left, kicked, banned, unbanned, added
    }

    public var action: Action
    public var actor: PersonRef
    public var target: PersonRef?
    public var group: GroupRef
    public var sentAt: Date
    public var id: String?

    public var conversationId: String { "group_" + group.guid }
}

/// A user read a conversation up to a message: their unread count there goes to zero.
public struct ReadEvent: Codable, Sendable, Equatable {
    public var uid: String
    public var conversationId: String
    public var messageId: String?
    public var readAt: Date
}

/// Herald's own event: a session ended; its devices get a background push saying so (Kandy's
/// silent "gone" notification), so the app can log in again.
public struct SessionEvent: Codable, Sendable, Equatable {
    public struct Device: Codable, Sendable, Equatable {
        public var token: String
        public var providerId: String
        public var platform: PushPlatform

        public init(token: String, providerId: String, platform: PushPlatform) {
            self.token = token
            self.providerId = providerId
            self.platform = platform
        }
    }

    public var uid: String
    public var sessionId: String
    /// `revoked`, `logged_out`, `expired`.
    public var reason: String
    public var devices: [Device]

    public init(uid: String, sessionId: String, reason: String, devices: [Device]) {
        self.uid = uid
        self.sessionId = sessionId
        self.reason = reason
        self.devices = devices
    }
}

extension JSONValue {
    /// A scalar as text: numbers without a fraction print as integers.
    public var text: String {
        switch self {
        case .string(let value): value
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .bool(let value): String(value)
        case .null: ""
        case .array, .object: (try? jsonText()) ?? ""
        }
    }
}

/// CometChat's conversation ids: `<uid>_user_<uid>` (the two uids in order) or `group_<guid>`.
public enum ConversationId {
    public static func user(_ a: String, _ b: String) -> String {
        a < b ? "\(a)_user_\(b)" : "\(b)_user_\(a)"
    }

    public static func group(_ guid: String) -> String { "group_" + guid }
}
