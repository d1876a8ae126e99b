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

    public var json: JSONObject { JSONObjectBuilder.object { write(into: &$0) } }

    /// Each key that is set, spelled as APNs reads it, into a sink: ``json``, or the payload's
    /// text on every push (no dictionary, no buffer of its own).
    public func write<Sink: JSONObjectSink>(into sink: inout Sink) {
        if let alert { alert.write(into: &sink) }
        if let badge { sink.member("badge", .number(Double(badge))) }
        if let sound { sink.member("sound", .string(sound)) }
        if let threadId { sink.member("thread-id", .string(threadId)) }
        if contentAvailable { sink.member("content-available", .number(1)) }
        if mutableContent { sink.member("mutable-content", .number(1)) }
        if let interruptionLevel { sink.member("interruption-level", .string(interruptionLevel.rawValue)) }
        if let relevanceScore { sink.member("relevance-score", .number(relevanceScore)) }
    }
}

extension APS.Alert {
    /// The `alert` member: an object, or the text alone.
    func write<Sink: JSONObjectSink>(into sink: inout Sink) {
        switch self {
        case .text(let title, let body):
            sink.member("alert") { alert in
                alert.member("title", .string(title))
                alert.member("body", .string(body))
            }
        case .plain(let text):
            sink.member("alert", .string(text))
        case .key(let key):
            sink.member("alert") { $0.member("loc-key", .string(key)) }
        case .localized(let localized):
            sink.member("alert") { alert in
                alert.member("title-loc-key", .string(localized.titleLocKey))
                if !localized.titleLocArgs.isEmpty { alert.member("title-loc-args", .array(localized.titleLocArgs.map(JSONValue.string))) }
                if let key = localized.locKey {
                    alert.member("loc-key", .string(key))
                    if !localized.locArgs.isEmpty { alert.member("loc-args", .array(localized.locArgs.map(JSONValue.string))) }
                } else {
                    alert.member("body", .string(localized.body))
                }
            }
        }
    }
}
