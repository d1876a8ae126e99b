import Foundation
import HeraldModels
import Testing

@testable import HeraldCore

/// A group's pages across fan-out batches: the next page goes on while the one before is still
/// being sent and recorded, is recorded only after it, and is dropped when it was not recorded.
@Suite("Page chain")
struct PageChainTests {
    /// The event `id` waiting at `cursor` (its next page).
    static func page(_ id: String, at cursor: String) -> StoredEvent {
        var stored = EventHandOffTests.events([id])[0]
        stored.cursor = cursor
        return stored
    }

    /// The step recording the page of `id` from `from` to `to` (nil: the event's last page).
    static func step(_ id: String, from: String?, to: String?) -> FanOutStep {
        FanOutStep(appId: "app1", eventId: id, fromCursor: from, cursor: to, done: to == nil, recipients: 1, leaseUntil: Date())
    }

    @Test func theNextPageGoesOnAtOnceAndIsRecordedAfterThePageBefore() async {
        let chain = PageChain(ahead: 1)
        let first = Self.step("e1", from: nil, to: "m1000")
        let (now, later) = chain.open([Self.page("e1", at: "m1000")])
        #expect(now.map(\.cursor) == ["m1000"] && later.isEmpty)
        let second = Self.step("e1", from: "m1000", to: nil)
        #expect(chain.isLinked(second) && !chain.isLinked(first), "the first page waits for nobody")
        async let waited = chain.waitForPageBefore(second)
        try? await Task.sleep(for: .milliseconds(20))
        chain.close(first, recorded: true)
        #expect(await waited, "recorded after the page before was")
        #expect(chain.count == 0, "nothing left behind")
    }

    @Test func aNextPageWhosePageBeforeWasNotRecordedIsDropped() async {
        let chain = PageChain(ahead: 1)
        _ = chain.open([Self.page("e1", at: "m1000")])
        // The page before closes first (another worker took the event over): the outcome waits.
        chain.close(Self.step("e1", from: nil, to: "m1000"), recorded: false)
        chain.close(Self.step("e1", from: nil, to: "m1000"), recorded: true)  // a page closes once
        #expect(await chain.waitForPageBefore(Self.step("e1", from: "m1000", to: "m2000")) == false)
        #expect(chain.count == 0)
    }

    @Test func onlyAheadPagesOfAnEventGoOnBeforeThePageBeforeIsRecorded() {
        let chain = PageChain(ahead: 1)
        #expect(chain.open([Self.page("e1", at: "m1000"), Self.page("e2", at: "x1000")]).now.count == 2, "one page ahead for each event")
        // The second page of e1 is planned while the first is still being recorded.
        let (now, later) = chain.open([Self.page("e1", at: "m2000")])
        #expect(now.isEmpty && later.map(\.cursor) == ["m2000"], "the third page waits until the first is recorded")
        #expect(!chain.isLinked(Self.step("e1", from: "m2000", to: nil)), "and then is recorded without waiting")
        chain.close(Self.step("e1", from: nil, to: "m1000"), recorded: true)
        chain.close(Self.step("e1", from: "m1000", to: "m2000"), recorded: true)
        #expect(chain.open([Self.page("e1", at: "m3000")]).now.count == 1, "both recorded: the next goes on at once again")
    }

    @Test func aNextPageWhoseBatchFailedLeavesNothingBehind() {
        let chain = PageChain(ahead: 1)
        _ = chain.open([Self.page("e1", at: "m1000")])
        chain.finish([Self.step("e1", from: "m1000", to: "m2000")])  // its batch failed before recording
        chain.close(Self.step("e1", from: nil, to: "m1000"), recorded: true)
        #expect(chain.count == 0)
    }
}
