import Foundation

/// A message the server sends on a session's WebSocket (`GET /v1/me/ws`): one JSON object per
/// text frame, told apart by `type`.
///
/// | `type` | when | fields |
/// | --- | --- | --- |
/// | `hello` | once, on connect | `sessionId`, `uid`, `appId`, `instance`, `pingIntervalSeconds` |
/// | `event` | a chat, call, reaction or group event for this user | `eventId`, `eventType`, `payload` |
/// | `feed_item` | a new notification-feed item | `item` |
/// | `unread` | the feed's unread count changed | `unreadCount`, optional `category` |
/// | `custom` | data an admin sent (`POST /v1/realtime/messages`) | `data` |
/// | `pong` | the answer to a client `ping` | optional `id` |
/// | `session_revoked` | the session was logged out or revoked; the socket closes next | `reason` |
/// | `error` | the client sent something unusable | `code`, `message` |
public enum RealtimeEnvelope: Sendable, Equatable {
    case hello(Hello)
    case event(Event)
    case feedItem(FeedItem)
    case unread(Unread)
    case custom(Custom)
    case pong(id: String?)
    case sessionRevoked(reason: String)
    case error(code: String, message: String)

    public struct Hello: Codable, Sendable, Equatable {
        public var sessionId: String
        public var uid: String
        public var appId: String
        public var instance: String
        public var pingIntervalSeconds: Int

        public init(sessionId: String, uid: String, appId: String, instance: String, pingIntervalSeconds: Int) {
            self.sessionId = sessionId
            self.uid = uid
            self.appId = appId
            self.instance = instance
            self.pingIntervalSeconds = pingIntervalSeconds
        }
    }

    /// An event delivered in-app instead of (or besides) a push: `payload` is the notification
    /// details a push would have carried (CometChat's fields).
    public struct Event: Codable, Sendable, Equatable {
        public var eventId: String
        /// `message`, `call`, `reaction`, `group_action`.
        public var eventType: String
        public var payload: JSONObject

        public init(eventId: String, eventType: String, payload: JSONObject) {
            self.eventId = eventId
            self.eventType = eventType
            self.payload = payload
        }
    }

    public struct FeedItem: Codable, Sendable, Equatable {
        public var item: JSONObject

        public init(item: JSONObject) {
            self.item = item
        }
    }

    public struct Unread: Codable, Sendable, Equatable {
        public var unreadCount: Int
        public var category: String?

        public init(unreadCount: Int, category: String? = nil) {
            self.unreadCount = unreadCount
            self.category = category
        }
    }

    public struct Custom: Codable, Sendable, Equatable {
        public var data: JSONObject

        public init(data: JSONObject) {
            self.data = data
        }
    }

    /// The `type` field of each case.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .event: "event"
        case .feedItem: "feed_item"
        case .unread: "unread"
        case .custom: "custom"
        case .pong: "pong"
        case .sessionRevoked: "session_revoked"
        case .error: "error"
        }
    }
}

extension RealtimeEnvelope: Codable {
    private enum Keys: String, CodingKey {
        case type, id, reason, code, message
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "hello": self = .hello(try Hello(from: decoder))
        case "event": self = .event(try Event(from: decoder))
        case "feed_item": self = .feedItem(try FeedItem(from: decoder))
        case "unread": self = .unread(try Unread(from: decoder))
        case "custom": self = .custom(try Custom(from: decoder))
        case "pong": self = .pong(id: try container.decodeIfPresent(String.self, forKey: .id))
        case "session_revoked": self = .sessionRevoked(reason: try container.decodeIfPresent(String.self, forKey: .reason) ?? "revoked")
        case "error":
            self = .error(code: try container.decode(String.self, forKey: .code), message: try container.decode(String.self, forKey: .message))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown envelope type \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .hello(let value): try value.encode(to: encoder)
        case .event(let value): try value.encode(to: encoder)
        case .feedItem(let value): try value.encode(to: encoder)
        case .unread(let value): try value.encode(to: encoder)
        case .custom(let value): try value.encode(to: encoder)
        case .pong(let id): try container.encodeIfPresent(id, forKey: .id)
        case .sessionRevoked(let reason): try container.encode(reason, forKey: .reason)
        case .error(let code, let message):
            try container.encode(code, forKey: .code)
            try container.encode(message, forKey: .message)
        }
    }

    /// The envelope as the compact JSON text a frame carries.
    public func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
