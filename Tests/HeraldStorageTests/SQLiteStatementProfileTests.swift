import Foundation
import HeraldTestSupport
import Testing

@testable import HeraldStorage

/// The statement profile `Benchmarks/sql-costs.sh` reads: one entry per statement, however its
/// whitespace is laid out and however long its `IN` list, written whole as JSON.
@Suite("SQLite statement profile")
struct SQLiteStatementProfileTests {
    @Test
    func aStatementIsCountedUnderOneNameAndWrittenWhole() throws {
        let path = TestScratch.path("profile", suffix: ".json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let profile = SQLiteStatementProfile(path: path)
        let columns = (1...30).map { "column_\($0)" }.joined(separator: ", ")
        let head = "SELECT \(columns) FROM deliveries WHERE id IN"
        profile.add("\(head) (?, ?)", rows: 1, nanoseconds: 1_000)
        profile.add("\(head)\n    (?, ?, ?, ?)", rows: 1, nanoseconds: 2_500)
        profile.add("INSERT INTO events (id) VALUES (?)", rows: 500, nanoseconds: 40_000)

        let snapshot = profile.snapshot
        #expect(snapshot.count == 2)
        let select = try #require(snapshot[SQLiteStatementProfile.key(head)])
        #expect(select == SQLiteStatementProfile.Totals(runs: 2, rows: 2, nanoseconds: 3_500))
        #expect(snapshot["INSERT INTO events (id) VALUES (?)"] == SQLiteStatementProfile.Totals(runs: 1, rows: 500, nanoseconds: 40_000))
        #expect(SQLiteStatementProfile.key(head).count == 100)

        try profile.write()
        let written = try JSONDecoder().decode([String: SQLiteStatementProfile.Totals].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == snapshot)
    }

    @Test
    func aThreadsCPUClockMovesWithWork() {
        let before = SQLiteStatementProfile.threadNanoseconds()
        var sum = 0
        for index in 0..<2_000_000 { sum &+= index &* index }
        #expect(sum != 0)
        #expect(SQLiteStatementProfile.threadNanoseconds() > before)
    }
}
