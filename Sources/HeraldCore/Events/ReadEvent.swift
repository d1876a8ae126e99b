import Foundation
import HeraldModels

/// A user read a conversation up to a message: their unread count there goes to zero.
public struct ReadEvent: Codable, Sendable, Equatable {
    public var uid: String
    public var conversationId: String
    public var messageId: String?
    public var readAt: Date
    /// The session (device) that read, when the backend names it: its devices are not cleared.
    public var sessionId: String?
}
