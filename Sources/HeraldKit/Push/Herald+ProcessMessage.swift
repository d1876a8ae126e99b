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
