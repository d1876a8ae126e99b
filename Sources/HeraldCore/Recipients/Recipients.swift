import Foundation

/// Who must be told of an event: a user message's receiver; a group's members but the sender
/// (in pages, never all at once); a reaction's message sender; a group action's members and
/// target but the actor; a read's reader (whose other devices are cleared). The one who did it is
/// never told of their own event.
public enum Recipients {
    /// The recipients that do not depend on a group's membership, and the group whose members
    /// are recipients too (paged by the fan-out).
    public static func direct(_ event: ChatEvent) -> (uids: [String], membersOf: String?, except: String?) {
        switch event.body {
        case .message(let m):
            return m.receiverType == .user ? (without([m.receiver], m.sender.uid), nil, m.sender.uid) : ([], m.receiver, m.sender.uid)
        case .call(let c):
            return c.receiverType == .user ? (without([c.receiver], c.sender.uid), nil, c.sender.uid) : ([], c.receiver, c.sender.uid)
        case .reaction(let r):
            return (without([r.messageSender], r.reactor.uid), nil, r.reactor.uid)
        case .groupAction(let g):
            return (without(g.target.map { [$0.uid] } ?? [], g.actor.uid), g.group.guid, g.actor.uid)
        case .read(let r):
            // The reader: their other devices are cleared.
            return ([r.uid], nil, nil)
        case .session(let s):
            return ([s.uid], nil, nil)
        case .matrix:
            // The notify names its device, no user: there is nothing about users to look up.
            return ([], nil, nil)
        }
    }

    private static func without(_ uids: [String], _ excluded: String) -> [String] {
        uids.filter { $0 != excluded }
    }
}
