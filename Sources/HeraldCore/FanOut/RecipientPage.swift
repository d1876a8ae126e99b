import Foundation

/// One page of an event's recipients: the direct ones on the first page, then a group's members
/// a page at a time after the event's cursor.
struct RecipientPage: Sendable {
    var stored: StoredEvent
    var recipients: [String]
    /// Where the next page starts (nil when this is the last).
    var cursor: String?
    var done: Bool

    /// The page that follows `stored`'s cursor, given the group members read after it (one more
    /// than `pageSize`, which says whether another page follows).
    static func make(_ stored: StoredEvent, members: [GroupMember]?, pageSize: Int) -> RecipientPage {
        let direct = Recipients.direct(stored.event)
        var recipients = stored.cursor == nil ? direct.uids : []
        guard let members else { return RecipientPage(stored: stored, recipients: recipients, cursor: nil, done: true) }
        let page = members.prefix(pageSize)
        let skip = Set(direct.uids + (direct.except.map { [$0] } ?? []))
        recipients += page.map(\.uid).filter { !skip.contains($0) }
        let more = members.count > pageSize
        return RecipientPage(stored: stored, recipients: recipients, cursor: more ? page.last?.uid : nil, done: !more)
    }

    /// Why an event that ended on its first page reached nobody, when the directory says why: its
    /// group does not exist or has no member but the one who acted, or none of its receivers is
    /// a known user. Nil when it reached someone (or, like `read`, is for nobody).
    static func nobodyReason(_ event: ChatEvent, recipients: [String], users: [String: User], groups: [String: Group]) -> NobodyReason? {
        if let guid = Recipients.direct(event).membersOf {
            guard recipients.isEmpty else { return nil }
            return groups.index(forKey: guid) == nil ? .unknownGroup : .noMembers
        }
        guard !recipients.isEmpty, recipients.allSatisfy({ users.index(forKey: $0) == nil }) else { return nil }
        return .unknownUser
    }
}
