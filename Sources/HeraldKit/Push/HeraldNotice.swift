import Foundation

#if canImport(UserNotifications)
import UserNotifications
#endif

/// A push that takes notifications away rather than showing one: a *clear* (the user read the
/// conversation on another device) or a *retract* (the message was deleted). Herald sends both
/// silently — APNs background pushes with `{"herald":{"type":"clear"|"retract",…}}`, FCM and HMS
/// data with the same fields — and the app removes what they name.
public enum HeraldNotice: Sendable, Equatable {
    /// Remove the conversation's notifications (up to a message, when the read named one).
    case clear(conversationId: String, upToMessageId: String?)
    /// Remove the notification of one message.
    case retract(messageId: String, conversationId: String)

    /// The notice a push carries, or nil for any other push. Reads `userInfo["herald"]` (APNs) or
    /// the data itself (FCM and HMS).
    public static func parse(_ payload: [AnyHashable: Any]) -> HeraldNotice? {
        let fields = (payload["herald"] as? [String: Any]) ?? (payload["herald"] as? [AnyHashable: Any]).map(Self.strings) ?? Self.strings(payload)
        switch fields["type"] as? String {
        case "clear":
            guard let conversation = fields["conversationId"] as? String else { return nil }
            return .clear(conversationId: conversation, upToMessageId: fields["upToMessageId"] as? String)
        case "retract":
            guard let message = fields["messageId"] as? String, let conversation = fields["conversationId"] as? String else { return nil }
            return .retract(messageId: message, conversationId: conversation)
        default:
            return nil
        }
    }

    static func strings(_ payload: [AnyHashable: Any]) -> [String: Any] {
        Dictionary(payload.compactMap { key, value in (key as? String).map { ($0, value) } }, uniquingKeysWith: { first, _ in first })
    }

    /// A notification the app shows: its identifier, and the payload it came with.
    public struct Shown: Sendable, Equatable {
        public var identifier: String
        /// The conversation (`conversationId`, or the APNs `thread-id`).
        public var conversationId: String?
        /// The message (`tag`, or `herald.messageId` of an id-only push).
        public var messageId: String?

        public init(identifier: String, conversationId: String?, messageId: String?) {
            self.identifier = identifier
            self.conversationId = conversationId
            self.messageId = messageId
        }

        /// What a shown notification's payload says of its conversation and message.
        public init(identifier: String, payload: [AnyHashable: Any]) {
            let herald = payload["herald"] as? [String: Any]
            let aps = payload["aps"] as? [String: Any]
            self.identifier = identifier
            conversationId = payload["conversationId"] as? String ?? herald?["conversationId"] as? String ?? aps?["thread-id"] as? String
            messageId = payload["tag"] as? String ?? herald?["messageId"] as? String
        }
    }

    /// The identifiers of the shown notifications this notice removes: every notification of the
    /// conversation for a clear, the message's for a retract. Pure, for every platform (on Android
    /// the app cancels by the conversation's tag).
    public func identifiersToRemove(from shown: [Shown]) -> [String] {
        switch self {
        case .clear(let conversationId, _):
            return shown.filter { $0.conversationId == conversationId }.map(\.identifier)
        case .retract(let messageId, let conversationId):
            return shown.filter { $0.messageId == messageId && ($0.conversationId == nil || $0.conversationId == conversationId) }.map(\.identifier)
        }
    }

    #if canImport(UserNotifications)
    /// Removes what the notice names from Notification Center; returns the identifiers removed.
    @discardableResult
    public func apply(to center: UNUserNotificationCenter = .current()) async -> [String] {
        let delivered = await center.deliveredNotifications()
        let shown = delivered.map { Shown(identifier: $0.request.identifier, payload: $0.request.content.userInfo) }
        let identifiers = identifiersToRemove(from: shown)
        center.removeDeliveredNotifications(withIdentifiers: identifiers)
        return identifiers
    }
    #endif
}

/// What a chat push carries, by Herald's content modes: everything, only ids for the app's
/// Notification Service Extension to fetch the message by, or the notification sealed to the
/// device's key (``HeraldPushDecryptor`` opens it).
public enum HeraldPushContent: Sendable, Equatable {
    case full
    case idOnly(messageId: String?, conversationId: String, sender: String?)
    case encrypted(String)

    public static func of(_ payload: [AnyHashable: Any]) -> HeraldPushContent {
        let herald = (payload["herald"] as? [String: Any]) ?? HeraldNotice.strings(payload)
        if let sealed = herald["enc"] as? String { return .encrypted(sealed) }
        if payload["title"] == nil, payload["body"] == nil, let conversation = herald["conversationId"] as? String,
            herald["type"] as? String != "clear",
            herald["type"] as? String != "retract"
        {
            return .idOnly(messageId: herald["messageId"] as? String, conversationId: conversation, sender: herald["sender"] as? String)
        }
        return .full
    }
}
