import Foundation
import HeraldModels
import Testing

@testable import HeraldCore

/// An event's recipients in pages: the direct ones first, then a group's members after the
/// cursor, never the one who acted, and a cursor only when another page follows.
@Suite("Recipient pages")
struct RecipientPageTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func stored(_ json: String, cursor: String? = nil) throws -> StoredEvent {
        let value = try JSONValue(jsonText: json)
        let body = try EventParser.parse(value, now: now).body
        return StoredEvent(
            event: ChatEvent(id: "evt_1", appId: "app1", clientId: nil, receivedAt: now, body: body, posted: value),
            status: .fanningOut,
            cursor: cursor
        )
    }

    static func members(_ uids: [String]) -> [GroupMember] {
        uids.map { GroupMember(uid: $0, scope: .participant, joinedAt: now) }
    }

    static let toGroup = #"{"type":"message","message":{"id":1,"text":"Hi","sender":"ana","receiver":"team","receiverType":"group"}}"#
    static let kick = #"{"type":"group_action","action":"kicked","actor":"ana","target":"zed","group":"team"}"#

    @Test func aUserMessageIsOnePageForItsReceiver() throws {
        let page = RecipientPage.make(
            try Self.stored(#"{"type":"message","message":{"id":1,"text":"Hi","sender":"ana","receiver":"bo","receiverType":"user"}}"#),
            members: nil,
            pageSize: 2
        )
        #expect(page.recipients == ["bo"] && page.done && page.cursor == nil)
    }

    @Test func aGroupIsReadAPageAtATimeWithoutTheSender() throws {
        // Three members asked for, one more than a page of two: another page follows after "bo".
        let first = RecipientPage.make(try Self.stored(Self.toGroup), members: Self.members(["ana", "bo", "cy"]), pageSize: 2)
        #expect(first.recipients == ["bo"] && !first.done && first.cursor == "bo")
        let last = RecipientPage.make(try Self.stored(Self.toGroup, cursor: "bo"), members: Self.members(["cy", "dee"]), pageSize: 2)
        #expect(last.recipients == ["cy", "dee"] && last.done && last.cursor == nil)
    }

    @Test func aGroupActionTellsItsTargetOnceAndTheMembersButTheActor() throws {
        let first = RecipientPage.make(try Self.stored(Self.kick), members: Self.members(["ana", "bo", "zed"]), pageSize: 5)
        #expect(first.recipients == ["zed", "bo"], "the target first, not again as a member, and never the actor")
        let later = RecipientPage.make(try Self.stored(Self.kick, cursor: "bo"), members: Self.members(["cy"]), pageSize: 5)
        #expect(later.recipients == ["cy"], "later pages have no direct recipients")
    }
}
