import Foundation
import HeraldModels

/// The `aps` dictionary of an APNs payload (also FCM's `apns.payload.aps`), its keys spelled once.
public struct APS: Sendable, Equatable {
    public enum Alert: Sendable, Equatable {
        /// `{"title","body"}`.
        case text(title: String, body: String)
        /// A plain string (Sendbird's alert).
        case plain(String)
        /// Kandy's localisation keys and args; the body as text when there is no body key.
        case localized(LocalizedAlert)
        /// Only a body localisation key (`loc-key`): the private content modes' "New message".
        case key(String)
    }

    public struct LocalizedAlert: Sendable, Equatable {
        public var titleLocKey: String
        public var titleLocArgs: [String]
        public var locKey: String?
        public var locArgs: [String]
        /// Shown when there is no `locKey`.
        public var body: String

        public init(titleLocKey: String, titleLocArgs: [String] = [], locKey: String? = nil, locArgs: [String] = [], body: String) {
            self.titleLocKey = titleLocKey
            self.titleLocArgs = titleLocArgs
            self.locKey = locKey
            self.locArgs = locArgs
            self.body = body
        }
    }

    /// `interruption-level`: how far an alert may break through Focus and summaries.
    public enum InterruptionLevel: String, Sendable, Equatable {
        case passive
        case active
        case timeSensitive = "time-sensitive"
        case critical
    }

    public var alert: Alert?
    public var badge: Int?
    public var sound: String?
    /// Groups the notification with others of the conversation.
    public var threadId: String?
    /// Wakes the app in the background.
    public var contentAvailable: Bool
    /// Lets a Notification Service Extension change the notification.
    public var mutableContent: Bool
    public var interruptionLevel: InterruptionLevel?
    /// `relevance-score`, 0…1: which notification of a group the summary shows first.
    public var relevanceScore: Double?

    public init(
        alert: Alert? = nil,
        badge: Int? = nil,
        sound: String? = nil,
        threadId: String? = nil,
        contentAvailable: Bool = false,
        mutableContent: Bool = false,
        interruptionLevel: InterruptionLevel? = nil,
        relevanceScore: Double? = nil
    ) {
        self.alert = alert
        self.badge = badge
        self.sound = sound
        self.threadId = threadId
        self.contentAvailable = contentAvailable
        self.mutableContent = mutableContent
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
    }

    /// A silent background update: `content-available` only.
    public static let silent = APS(contentAvailable: true)
    /// Nothing at all: VoIP pushes carry their call in the other keys.
    public static let empty = APS()

    public var json: JSONObject {
        var aps: JSONObject = [:]
        forEachMember { aps[$0] = $1 }
        return aps
    }

    /// ``json``'s text, written as the members come (every APNs push).
    public func write(into out: inout [UInt8]) {
        var writer = JSONObjectWriter(capacity: 128)
        forEachMember { writer.member($0, $1) }
        out.append(contentsOf: writer.finish())
    }

    /// Each key that is set, spelled as APNs reads it, with its value.
    private func forEachMember(_ body: (String, JSONValue) -> Void) {
        if let alert { body("alert", alert.json) }
        if let badge { body("badge", .number(Double(badge))) }
        if let sound { body("sound", .string(sound)) }
        if let threadId { body("thread-id", .string(threadId)) }
        if contentAvailable { body("content-available", .number(1)) }
        if mutableContent { body("mutable-content", .number(1)) }
        if let interruptionLevel { body("interruption-level", .string(interruptionLevel.rawValue)) }
        if let relevanceScore { body("relevance-score", .number(relevanceScore)) }
    }
}

extension APS.Alert {
    var json: JSONValue {
        switch self {
        case .text(let title, let body):
            return .object(["title": .string(title), "body": .string(body)])
        case .plain(let text):
            return .string(text)
        case .key(let key):
            return .object(["loc-key": .string(key)])
        case .localized(let alert):
            var object: JSONObject = ["title-loc-key": .string(alert.titleLocKey)]
            if !alert.titleLocArgs.isEmpty { object["title-loc-args"] = .array(alert.titleLocArgs.map(JSONValue.string)) }
            if let key = alert.locKey {
                object["loc-key"] = .string(key)
                if !alert.locArgs.isEmpty { object["loc-args"] = .array(alert.locArgs.map(JSONValue.string)) }
            } else {
                object["body"] = .string(alert.body)
            }
            return .object(object)
        }
    }
}
