import Foundation
import HeraldModels

public struct CallEvent: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable, CaseIterable {
        case initiated, cancelled, unanswered, ongoing, rejected, ended, busy
    }

    public enum CallType: String, Codable, Sendable, CaseIterable {
        case audio, video
    }

    public var callAction: Action
    public var sessionId: String
    public var callType: CallType
    public var sender: PersonRef
    public var receiver: String
    public var receiverUser: PersonRef?
    public var receiverGroup: GroupRef?
    public var receiverType: ReceiverType
    public var conversationId: String
    public var sentAt: Date
    /// The call message's id when the backend has one; the call session id otherwise.
    public var messageId: String?
}
