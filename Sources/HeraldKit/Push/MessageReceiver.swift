import Foundation
import HeraldModels

/// Who a message went to: a user (1:1) or a group.
public enum MessageReceiver: Sendable, Equatable {
    case user(ChatUser)
    case group(ChatGroup)

    public var id: String {
        switch self {
        case .user(let user): user.uid
        case .group(let group): group.guid
        }
    }
}
