import Testing

@testable import HeraldCore

/// The sequence part of time-ordered ids: each millisecond counts on its own, whichever clock
/// made the ids between, until it is forgotten.
@Suite("Identifier sequences")
struct IdentifierSequencesTests {
    @Test func eachMillisecondCountsOnWhereItStopped() {
        var sequences = Identifier.Sequences()
        #expect([5, 5, 9, 5, 9, 9, 5, 7, 5].map { sequences.next(for: $0) } == [0, 1, 0, 2, 1, 2, 3, 0, 4])
    }

    @Test func aSequenceStopsAtItsLargestValue() {
        var sequences = Identifier.Sequences()
        for _ in 0..<0xFFFF { _ = sequences.next(for: 1) }
        #expect(sequences.next(for: 1) == 0xFFFF)
        #expect(sequences.next(for: 1) == 0xFFFF)
    }

    /// Past the capacity, the millisecond used longest ago starts again.
    @Test func theMillisecondUsedLongestAgoIsForgotten() {
        var sequences = Identifier.Sequences()
        let others = UInt64(Identifier.Sequences.capacity)
        _ = sequences.next(for: 0)
        for ms in 1...others { _ = sequences.next(for: ms) }
        #expect(sequences.next(for: 0) == 1, "remembered beside \(others) others")
        for ms in 1...others + 1 { _ = sequences.next(for: 1_000 + ms) }
        #expect(sequences.next(for: 0) == 0, "forgotten after \(others + 1) others")
        #expect(sequences.next(for: 1_000 + others + 1) == 1, "the latest other still counts on")
    }
}
