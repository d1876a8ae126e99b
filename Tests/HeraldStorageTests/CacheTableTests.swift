import Testing

@testable import HeraldStorage

/// A cached value is never one loaded before its key's last change: the load is returned to its
/// caller but not kept. These are the rules behind the cache guarantees `CacheTests` checks end
/// to end on both back-ends.
@Suite("Cache table")
struct CacheTableTests {
    func cached(_ table: CacheTable<String, Int>, _ keys: [String]) -> [String: Int] {
        table.lookup(keys, key: { $0 }, present: { $0 }).found
    }

    @Test func aLoadKeepsTheKeysThatDidNotChangeSinceItBegan() {
        let table = CacheTable<String, Int>(limit: 100)
        let epoch = table.lookup(["a", "b"], key: { $0 }, present: { $0 }).epoch
        table.forget(["a"])
        table.store(["a": 1, "b": 2], loadedAt: epoch)
        #expect(cached(table, ["a", "b"]) == ["b": 2])
        // A load that began after the change is kept.
        table.store(["a": 3], loadedAt: table.lookup(["a"], key: { $0 }, present: { $0 }).epoch)
        #expect(cached(table, ["a", "b"]) == ["a": 3, "b": 2])
    }

    @Test func anUpdateChangesCachedValuesInPlaceAndCountsAsAChange() {
        let table = CacheTable<String, Int>(limit: 100)
        let before = table.lookup(["a"], key: { $0 }, present: { $0 }).epoch
        table.store(["a": 1], loadedAt: before)
        table.update(["a", "b"]) { position, value in value += 10 * (position + 1) }
        #expect(cached(table, ["a", "b"]) == ["a": 11], "b is not cached: only its change is noted")
        // Loads that began before the update keep neither key.
        table.store(["a": 1, "b": 2], loadedAt: before)
        #expect(cached(table, ["a", "b"]) == ["a": 11])
    }

    @Test func forgettingAllKeepsNothingLoadedBefore() {
        let table = CacheTable<String, Int>(limit: 100)
        let epoch = table.lookup(["a"], key: { $0 }, present: { $0 }).epoch
        table.store(["a": 1], loadedAt: epoch)
        table.forgetAll()
        #expect(cached(table, ["a"]).isEmpty)
        table.store(["b": 2], loadedAt: epoch)
        #expect(cached(table, ["b"]).isEmpty)
    }

    /// Past its limit the table starts again empty, changes remembered included: so a load that
    /// began before is not kept (it might predate a change no longer remembered).
    @Test func pastItsLimitTheTableStartsAgainAndEarlierLoadsKeepNothing() {
        let table = CacheTable<String, Int>(limit: 4)
        let early = table.lookup(["x"], key: { $0 }, present: { $0 }).epoch
        table.forget(["x"])
        table.forget(["p", "q", "r"])
        table.forget(["s"])  // the fifth key: the table starts again
        table.store(["y": 1], loadedAt: early)
        #expect(cached(table, ["y"]).isEmpty)
        let now = table.lookup(["y"], key: { $0 }, present: { $0 }).epoch
        table.store(["y": 1, "z": 2], loadedAt: now)
        #expect(cached(table, ["y", "z"]) == ["y": 1, "z": 2])
        // Loading past the limit starts again with this load alone.
        table.store(["a": 1, "b": 2, "c": 3], loadedAt: now)
        #expect(cached(table, ["a", "b", "c", "y", "z"]) == ["a": 1, "b": 2, "c": 3])
    }

    @Test func aValueCachedAsAbsentIsFoundAndLeftOutByPresent() {
        let table = CacheTable<String, Int?>(limit: 100)
        table.store(["gone": nil, "here": 5], loadedAt: 0)
        let result = table.lookup(["gone", "here", "unknown"], key: { $0 }, present: { $0 })
        #expect(result.found == ["here": 5] && result.missing == ["unknown"])
    }
}
