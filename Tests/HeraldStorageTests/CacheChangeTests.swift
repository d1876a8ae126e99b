import Foundation
import Testing

@testable import HeraldStorage

/// A change travels between processes in `NOTIFY` payloads, which PostgreSQL refuses at 8,000
/// bytes: a list of users goes in parts that each fit, whatever the length of the uids.
@Suite("Cache changes")
struct CacheChangeTests {
    let appId = "app0123456789abcdef"

    /// What ``CacheBus`` sends: `instance sequence confirm text`, with the longest sequence.
    func notice(_ change: CacheChange) -> String { "h0123456789ab \(UInt64.max) 0 \(change.text)" }

    @Test(arguments: [
        (1_000, "uuid"), (5_000, "short"), (120, "long"),
    ])
    func aListOfUsersGoesInPartsThatEachFitANotice(count: Int, shape: String) throws {
        let uids = (0..<count).map { index in
            switch shape {
            case "uuid": UUID().uuidString.lowercased()
            case "short": "u\(index)"
            // 100 characters of two bytes each: a uid at its longest, 200 bytes.
            default: String(repeating: "é", count: 99) + String(index % 10)
            }
        }
        for change in [CacheChange.unread(appId: appId, uids: uids), .users(appId: appId, uids: uids)] {
            let parts = change.parts
            #expect(parts.count > 1)
            var named: [String] = []
            for part in parts {
                #expect(part.text.utf8.count <= CacheChange.textLimit)
                #expect(notice(part).utf8.count < 8_000)
                #expect(CacheChange(text: part.text) == part, "read back as sent")
                switch part {
                case .unread(let app, let some), .users(let app, let some):
                    #expect(app == appId && !some.isEmpty)
                    named += some
                default: Issue.record("a part of another kind: \(part)")
                }
            }
            #expect(named == uids, "every user named once, in order")
        }
    }

    /// Sent whole (a strict change too long for one notice), a list becomes the whole app rather
    /// than a payload PostgreSQL refuses; 300 uuids were 11,000 bytes, and such a notice was lost.
    @Test
    func aListSentWholeThatDoesNotFitBecomesTheWholeApp() {
        let uuids = (0..<300).map { _ in UUID().uuidString.lowercased() }
        #expect(CacheChange.unread(appId: appId, uids: uuids).text == "N|" + appId)
        #expect(CacheChange.users(appId: appId, uids: uuids).text == "A|" + appId)
        let few = Array(uuids.prefix(100))
        #expect(CacheChange.unread(appId: appId, uids: few).parts == [.unread(appId: appId, uids: few)])
        #expect(CacheChange.users(appId: appId, uids: few).text.hasPrefix("u|" + appId + "|"))
        #expect(CacheChange.unread(appId: appId, uids: []).parts == [.unread(appId: appId, uids: [])], "every count of the app, as it is")
        #expect(CacheChange.credentials.parts == [.credentials])
    }

    /// Published on its own (a strict change waits for every process's answer to each notice), a
    /// list goes in its parts up to 16 of them; a bulk import's longer list as the whole app.
    @Test
    func aChangePublishedOnItsOwnGoesInAtMostSixteenNotices() {
        let some = (0..<1_000).map { _ in UUID().uuidString.lowercased() }
        let change = CacheChange.users(appId: appId, uids: some)
        #expect(change.notices == change.parts && (2...16).contains(change.notices.count))
        let many = (0..<5_000).map { _ in UUID().uuidString.lowercased() }
        let bulk = CacheChange.users(appId: appId, uids: many)
        #expect(bulk.parts.count > 16)
        #expect(bulk.notices == [bulk] && bulk.text == "A|" + appId, "the whole app, in one notice")
        #expect(CacheChange.app(appId).notices == [.app(appId)])
    }
}
