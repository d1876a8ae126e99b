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
        let token = PushToken(
            appId: "app1",
            uid: "bo",
            sessionId: "s1",
            providerId: "apns-1",
            platform: .apnsIOSDevice,
            token: "ab",
            createdAt: Date(),
            lastSeenAt: Date()
        )
        var records = ["bo": RecipientRecord(tokens: [token], unread: ["ana_user_bo": 3, "group_team": 1])]
        ledger.merge(appId: "app1", uids: ["bo", "cy"], into: &records)
        #expect(
            records == ["bo": RecipientRecord(tokens: [token], unread: ["ana_user_bo": 5, "group_team": 1])],
            "only this app's increments, only for the users asked"
        )
        var none: [String: RecipientRecord] = [:]
        ledger.merge(appId: "app1", uids: ["cy"], into: &none)
        #expect(none.isEmpty)
        // A user whose record was never read (no row of any kind) gets one for the pending count.
        ledger.merge(appId: "app1", uids: ["bo"], into: &none)
        #expect(none == ["bo": RecipientRecord(unread: ["ana_user_bo": 2])])
        ledger.add(appId: "app1", [chat, chat], by: -1)
        ledger.add(appId: "app2", [chat], by: -1)
        #expect(ledger.isEmpty, "committed increments leave nothing behind")
        records = ["bo": RecipientRecord(unread: ["ana_user_bo": 3])]
        ledger.merge(appId: "app1", uids: ["bo"], into: &records)
        #expect(records == ["bo": RecipientRecord(unread: ["ana_user_bo": 3])])
    }
}
