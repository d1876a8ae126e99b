import Foundation

/// One user's unread count in one conversation.
public struct UnreadKey: Sendable, Hashable {
    public var uid: String
    public var conversationId: String

    public init(uid: String, conversationId: String) {
        self.uid = uid
        self.conversationId = conversationId
    }
}
