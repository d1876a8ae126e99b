import Foundation
import HeraldCore
import Testing

@Suite("Security primitives")
struct SecurityPrimitivesTests {
    @Test func uuidsAreVersionFourAndDistinct() throws {
        var seen = Set<String>()
        for _ in 0..<2_000 {
            let text = Identifier.uuid()
            let parsed = try #require(UUID(uuidString: text), "\(text)")
            #expect(parsed.uuidString.lowercased() == text)
            let bytes = parsed.uuid
            #expect(bytes.6 >> 4 == 4, "version nibble of \(text)")
            #expect(bytes.8 >> 6 == 0b10, "variant bits of \(text)")
            seen.insert(text)
        }
        #expect(seen.count == 2_000)
    }

    /// Ids made one after another sort in that order, even in the same millisecond (which of two
    /// events came later is read from their ids); an earlier time given keeps its own millisecond.
    @Test func timeOrderedIdsSortInTheOrderTheyWereMade() {
        let ids = (0..<20_000).map { _ in Identifier.timeOrdered("evt_") }
        #expect(ids == ids.sorted() && Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == "evt_".count + 27 })
        #expect(ids.allSatisfy { $0.dropFirst(4).allSatisfy { "0123456789abcdef".contains($0) } })
        let earlier = Identifier.timeOrdered("evt_", now: Date(timeIntervalSince1970: 1_000))
        #expect(earlier < ids[0] && earlier.hasPrefix("evt_000000f42400000"))
    }

    /// A caller's clock ahead of the system's (a test's) does not unsettle the order of the ids
    /// made on the system's clock meanwhile: the suite's other tests make ids on theirs.
    @Test func idsOnTheSystemClockStayInOrderBesideAClockAhead() {
        let ahead = Date().addingTimeInterval(3_600)
        var ids: [String] = []
        for i in 0..<20_000 {
            if i % 3 == 0 { _ = Identifier.timeOrdered("itm_", now: ahead) }
            ids.append(Identifier.timeOrdered("evt_"))
        }
        #expect(zip(ids, ids.dropFirst()).filter { $0 >= $1 }.count == 0, "ids out of order")
    }

    @Test func constantTimeEqualityIsEquality() {
        #expect(ConstantTime.equals("", ""))
        #expect(ConstantTime.equals("a3f9", "a3f9"))
        #expect(!ConstantTime.equals("a3f9", "a3f8"))
        #expect(!ConstantTime.equals("a3f9", "b3f9"))
        #expect(!ConstantTime.equals("a3f9", "a3f90"))
        #expect(!ConstantTime.equals("a3f9", ""))
        // Lengths that differ by a multiple of 256 must not cancel out.
        #expect(!ConstantTime.equals([UInt8](repeating: 0, count: 256), [UInt8]()))
        #expect(!ConstantTime.equals([UInt8](repeating: 7, count: 300), [UInt8](repeating: 7, count: 44)))
    }

    @Test func tokenBucketAllowsBurstThenRate() {
        let limit = TokenBucket.Limit(rate: 10, burst: 5)
        var bucket = TokenBucket(limit: limit, now: 100)
        for _ in 0..<5 { #expect(bucket.take(limit: limit, now: 100) == nil) }
        let wait = bucket.take(limit: limit, now: 100)
        #expect(wait != nil && abs(wait! - 0.1) < 1e-9)
        // A refused request costs nothing: the same wait, less the time passed.
        let later = bucket.take(limit: limit, now: 100.05)
        #expect(later != nil && abs(later! - 0.05) < 1e-9)
        #expect(bucket.take(limit: limit, now: 100.1) == nil)
        #expect(bucket.take(limit: limit, now: 100.1) != nil)
        #expect(!bucket.isFull(limit: limit, now: 100.2))
        #expect(bucket.isFull(limit: limit, now: 100.7))
        // Time spent idle never fills it past its burst.
        for _ in 0..<5 { #expect(bucket.take(limit: limit, now: 1_000) == nil) }
        #expect(bucket.take(limit: limit, now: 1_000) != nil)
        #expect(TokenBucket.Limit(rate: 3).burst == 6)
    }
}
