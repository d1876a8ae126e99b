import Foundation

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
        case .matrix: []
        }
    }

    /// The group an event names.
    public static func namedGroup(_ event: ChatEvent) -> String? {
        switch event.body {
        case .message(let m): m.receiverType == .group ? m.receiver : nil
        case .call(let c): c.receiverType == .group ? c.receiver : nil
        case .reaction(let r): r.group?.guid
        case .groupAction(let g): g.group.guid
        case .read, .session, .matrix: nil
        }
    }

    /// Resolves the people and group an event names against the synced directory; what the
    /// event says inline wins.
    public static func resolve(_ event: ChatEvent, app: App, users: [String: User], group: Group?) -> ResolvedEvent {
        let user = { (ref: PersonRef) in UserInfo.resolve(ref, synced: users[ref.uid]) }
        switch event.body {
        case .message(let m):
            return ResolvedEvent(
                event: event,
                app: app,
                sender: user(m.sender),
                receiverUser: m.receiverType == .user ? user(m.receiverUser ?? PersonRef(uid: m.receiver)) : nil,
                group: m.receiverType == .group ? GroupInfo.resolve(m.receiverGroup ?? GroupRef(guid: m.receiver), synced: group) : nil
            )
        case .call(let c):
            return ResolvedEvent(
                event: event,
                app: app,
                sender: user(c.sender),
                receiverUser: c.receiverType == .user ? user(c.receiverUser ?? PersonRef(uid: c.receiver)) : nil,
                group: c.receiverType == .group ? GroupInfo.resolve(c.receiverGroup ?? GroupRef(guid: c.receiver), synced: group) : nil
            )
        case .reaction(let r):
            // CometChat: in a user conversation the receiver is the reactor (the conversation to open).
            let reactor = user(r.reactor)
            return ResolvedEvent(
                event: event,
                app: app,
                sender: reactor,
                receiverUser: r.receiverType == .user ? reactor : nil,
                group: r.group.map { GroupInfo.resolve($0, synced: group) }
            )
        case .groupAction(let g):
            return ResolvedEvent(
                event: event,
                app: app,
                sender: user(g.actor),
                group: GroupInfo.resolve(g.group, synced: group),
                target: g.target.map(user)
            )
        case .read(let r):
            return ResolvedEvent(event: event, app: app, sender: user(PersonRef(uid: r.uid)))
        case .session(let s):
            return ResolvedEvent(event: event, app: app, sender: user(PersonRef(uid: s.uid)))
        case .matrix(let push):
            let sender = push.notification.sender ?? ""
            return ResolvedEvent(event: event, app: app, sender: user(PersonRef(uid: sender, name: push.notification.senderDisplayName)))
        }
    }
}
