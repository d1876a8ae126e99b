/// Counts of alike things in a batch — decisions, provider verdicts — reported once per kind
/// rather than once per recipient or push. A batch holds few kinds: they are found by a linear
/// search, with no hashing.
struct Tally<Key: Equatable & Sendable>: Sendable {
    private(set) var counts: [(key: Key, count: Int)] = []

    init() {}

    mutating func add(_ key: Key, _ count: Int = 1) {
        if let index = counts.firstIndex(where: { $0.key == key }) {
            counts[index].count += count
        } else {
            counts.append((key, count))
        }
    }
}
