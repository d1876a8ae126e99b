import Foundation
import HeraldModels

/// Kandy's localisation keys: `chatMessageNotification_title` with the sender for a message,
/// `groupChatSessionInvitationNotification_title`/`_body` with the group for an invitation; and
/// keys of the same form for what Kandy does not cover.
public enum LocalizationKeys {
    public static func defaults(for event: ResolvedEvent) -> (titleKey: String?, titleArgs: [String]?, bodyKey: String?, bodyArgs: [String]?) {
        let sender = event.sender.name
        let group = event.group?.name ?? ""
        switch event.event.body {
        case .message(let m):
            return m.receiverType == .group
                ? ("groupChatMessageNotification_title", [sender, group], nil, nil)
                : ("chatMessageNotification_title", [sender], nil, nil)
        case .call(let c):
            return ("callNotification_title", [sender], c.callType == .video ? "videoCallNotification_body" : "audioCallNotification_body", [])
        case .reaction(let r):
            return ("reactionNotification_title", [sender], "reactionNotification_body", [r.reaction])
        case .groupAction(let g):
            if g.action == .added {
                return ("groupChatSessionInvitationNotification_title", nil, "groupChatSessionInvitationNotification_body", [group])
            }
            let action = g.action.rawValue.prefix(1).uppercased() + g.action.rawValue.dropFirst()
            return ("groupActionNotification_title", [group], "group\(action)Notification_body", [sender] + (event.target.map { [$0.name] } ?? []))
        case .read, .session, .matrix:
            return (nil, nil, nil, nil)
        }
    }
}
