import Foundation
import HeraldModels

/// Fields every message type shares.
public struct MessageHeader: Sendable, Equatable {
    public var id: String?
    public var muid: String?
    public var sender: ChatUser
    public var receiver: MessageReceiver
    public var conversationId: String
    public var sentAt: Date?
    public var editedAt: Date?
    public var deletedAt: Date?
    public var title: String?
    public var body: String?

    public var receiverType: ReceiverType {
        if case .group = receiver { return .group }
        return .user
    }
}
