import Foundation
import HeraldModels

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
