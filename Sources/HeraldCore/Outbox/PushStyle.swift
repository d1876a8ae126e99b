import Foundation
import HeraldModels

/// How a delivery's push is shaped beyond its route, decided with the delivery and kept with it
/// (a retry after a restart builds the same push): what kind of notice it is, whether it
/// mentions the recipient, the content mode, and for a burst summary how many messages it
/// stands for and which alert it replaces.
public struct PushStyle: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The event's own notification.
        case notification
        /// Removes a conversation's notifications (a read elsewhere).
        case clear
        /// Removes one message's notification (the message was deleted).
        case retract
        /// Replaces a conversation's first alert with "N new messages".
        case summary
    }

    public var kind: Kind
    /// The push mentions its recipient (uid, `mentionsAll` or a keyword).
    public var mentioned: Bool
    public var contentMode: ContentMode
    /// A summary: the messages it stands for.
    public var count: Int?
    /// A summary: the collapse id (message id) of the alert it replaces.
    public var replaces: String?
    /// `encrypted`: the device key the notification is sealed to (copied from the token, so that
    /// a retry seals to the same device).
    public var sealedTo: PushEncryptionKeys?

    public init(kind: Kind = .notification, mentioned: Bool = false, contentMode: ContentMode = .full, count: Int? = nil, replaces: String? = nil) {
        self.kind = kind
        self.mentioned = mentioned
        self.contentMode = contentMode
        self.count = count
        self.replaces = replaces
    }

    public static let plain = PushStyle()

    /// The `style` column: nil for a plain notification, else a small JSON object.
    public var storedText: String? {
        guard self != .plain else { return nil }
        var object: JSONObject = [:]
        if kind != .notification { object["kind"] = .string(kind.rawValue) }
        if mentioned { object["mentioned"] = .bool(true) }
        if contentMode != .full { object["contentMode"] = .string(contentMode.rawValue) }
        if let count { object["count"] = .number(Double(count)) }
        if let replaces { object["replaces"] = .string(replaces) }
        if let sealedTo { object["sealedTo"] = .string(sealedTo.storedText) }
        return try? JSONValue.object(object).jsonText()
    }

    /// The style a `style` column holds (plain when empty or unreadable: a newer version's
    /// style read by an older one sends the plain notification).
    public init(storedText: String?) {
        self.init()
        guard let storedText, let object = (try? JSONValue(jsonText: storedText))?.objectValue else { return }
        kind = object["kind"]?.stringValue.flatMap(Kind.init(rawValue:)) ?? .notification
        if case .bool(true)? = object["mentioned"] { mentioned = true }
        contentMode = object["contentMode"]?.stringValue.flatMap(ContentMode.init(rawValue:)) ?? .full
        if case .number(let value)? = object["count"] { count = Int(value) }
        replaces = object["replaces"]?.stringValue
        sealedTo = PushEncryptionKeys(storedText: object["sealedTo"]?.stringValue)
    }
}
