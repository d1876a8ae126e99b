import Foundation
import HeraldModels

public indirect enum EventBody: Codable, Sendable, Equatable {
    case message(MessageEvent)
    case call(CallEvent)
    case reaction(ReactionEvent)
    case groupAction(GroupActionEvent)
    case read(ReadEvent)
    case session(SessionEvent)
    /// A Matrix homeserver's notify, for one device (``MatrixPush``).
    case matrix(MatrixPush)

    public var kind: EventKind {
        switch self {
        case .message: .message
        case .call: .call
        case .reaction: .reaction
        case .groupAction: .groupAction
        case .read: .read
        case .session: .session
        case .matrix: .matrix
        }
    }

    /// An edit or a delete of a message: told only to those who were alerted to the message.
    public var isMessageChange: Bool {
        if case .message(let message) = self { return message.action != .new }
        return false
    }
}
