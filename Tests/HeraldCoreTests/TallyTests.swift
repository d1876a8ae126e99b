import Testing

@testable import HeraldCore

@Suite("Counting a batch's alike outcomes")
struct TallyTests {
    /// Each kind once, in the order first seen, with how many there were; a count given adds as many.
    @Test func countsEachKindOnceInTheOrderFirstSeen() {
        var tally = Tally<Dispatcher.Verdict>()
        #expect(tally.counts.isEmpty)
        for outcome in ["delivered", "failed", "delivered", "delivered"] {
            tally.add(Dispatcher.Verdict(outcome: outcome, reason: outcome == "failed" ? "BadDeviceToken" : nil))
        }
        tally.add(Dispatcher.Verdict(outcome: "failed", reason: "Unregistered"), 3)
        tally.add(Dispatcher.Verdict(outcome: "failed", reason: "BadDeviceToken"))
        #expect(tally.counts.map(\.key.outcome) == ["delivered", "failed", "failed"])
        #expect(tally.counts.map(\.key.reason) == [nil, "BadDeviceToken", "Unregistered"])
        #expect(tally.counts.map(\.count) == [3, 2, 3])
    }
}
