import Foundation

/// Who must be told of an event: a user message's receiver; a group's members but the sender
/// (in pages, never all at once); a reaction's message sender; a group action's members and
/// target but the actor. The one who did it is never told of their own event.
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
        case .read:
            return ([], nil, nil)
        case .session(let s):
            return ([s.uid], nil, nil)
        }
    }

    private static func without(_ uids: [String], _ excluded: String) -> [String] {
        uids.filter { $0 != excluded }
    }
}

extension ResolvedEvent {
    /// The uids an event names (sender, receiver, target), to look up in one query.
    public static func namedUids(_ event: ChatEvent) -> [String] {
        switch event.body {
        case .message(let m): m.receiverType == .user ? [m.sender.uid, m.receiver] : [m.sender.uid]
        case .call(let c): c.receiverType == .user ? [c.sender.uid, c.receiver] : [c.sender.uid]
        case .reaction(let r): [r.reactor.uid, r.messageSender]
        case .groupAction(let g): [g.actor.uid] + (g.target.map { [$0.uid] } ?? [])
        case .read(let r): [r.uid]
        case .session(let s): [s.uid]
        }
    }

    /// The group an event names.
    public static func namedGroup(_ event: ChatEvent) -> String? {
        switch event.body {
        case .message(let m): m.receiverType == .group ? m.receiver : nil
        case .call(let c): c.receiverType == .group ? c.receiver : nil
        case .reaction(let r): r.group?.guid
        case .groupAction(let g): g.group.guid
        case .read, .session: nil
        }
    }

    /// Resolves the people and group an event names against the synced directory; what the
    /// event says inline wins.
    public static func resolve(_ event: ChatEvent, app: App, users: [String: User], group: Group?) -> ResolvedEvent {
        let user = { (ref: PersonRef) in UserInfo.resolve(ref, synced: users[ref.uid]) }
        switch event.body {
        case .message(let m):
            return ResolvedEvent(event: event, app: app, sender: user(m.sender),
                                 receiverUser: m.receiverType == .user ? user(m.receiverUser ?? PersonRef(uid: m.receiver)) : nil,
                                 group: m.receiverType == .group ? GroupInfo.resolve(m.receiverGroup ?? GroupRef(guid: m.receiver), synced: group) : nil)
        case .call(let c):
            return ResolvedEvent(event: event, app: app, sender: user(c.sender),
                                 receiverUser: c.receiverType == .user ? user(c.receiverUser ?? PersonRef(uid: c.receiver)) : nil,
                                 group: c.receiverType == .group ? GroupInfo.resolve(c.receiverGroup ?? GroupRef(guid: c.receiver), synced: group) : nil)
        case .reaction(let r):
            // CometChat: in a user conversation the receiver is the reactor (the conversation to open).
            let reactor = user(r.reactor)
            return ResolvedEvent(event: event, app: app, sender: reactor, receiverUser: r.receiverType == .user ? reactor : nil,
                                 group: r.group.map { GroupInfo.resolve($0, synced: group) })
        case .groupAction(let g):
            return ResolvedEvent(event: event, app: app, sender: user(g.actor), group: GroupInfo.resolve(g.group, synced: group),
                                 target: g.target.map(user))
        case .read(let r):
            return ResolvedEvent(event: event, app: app, sender: user(PersonRef(uid: r.uid)))
        case .session(let s):
            return ResolvedEvent(event: event, app: app, sender: user(PersonRef(uid: s.uid)))
        }
    }
}
