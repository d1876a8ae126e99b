import Foundation
import Testing

@testable import HeraldCore

/// Unread increments of fan-outs still in flight, added to the stored counts so that two
/// batches for one user give badges 1 and 2.
@Suite("Unread ledger")
struct UnreadLedgerTests {
    @Test func pendingIncrementsAddToStoredCountsUntilGivenBack() {
        let ledger = UnreadLedger()
        let chat = UnreadKey(uid: "bo", conversationId: "ana_user_bo")
        ledger.add(appId: "app1", [chat, chat])
        ledger.add(appId: "app2", [chat])
        let merged = ledger.merged(appId: "app1", uids: ["bo", "cy"], into: ["bo": ["ana_user_bo": 3, "group_team": 1]])
        #expect(merged == ["bo": ["ana_user_bo": 5, "group_team": 1]], "only this app's increments, only for the users asked")
        #expect(ledger.merged(appId: "app1", uids: ["cy"], into: [:]).isEmpty)
        ledger.add(appId: "app1", [chat, chat], by: -1)
        ledger.add(appId: "app2", [chat], by: -1)
        #expect(ledger.isEmpty, "committed increments leave nothing behind")
        #expect(ledger.merged(appId: "app1", uids: ["bo"], into: ["bo": ["ana_user_bo": 3]]) == ["bo": ["ana_user_bo": 3]])
    }
}
