import Foundation
import HeraldModels

/// CometChat's conversation ids: `<uid>_user_<uid>` (the two uids in order) or `group_<guid>`.
public enum ConversationId {
    public static func user(_ a: String, _ b: String) -> String {
        a < b ? "\(a)_user_\(b)" : "\(b)_user_\(a)"
    }

    public static func group(_ guid: String) -> String { "group_" + guid }
}
