import Foundation
import Synchronization

/// What each SQL statement costs the process, for `Benchmarks/sql-costs.sh`: the CPU time of the
/// thread that ran it (SQLite's own work, binding values and reading rows, and the kernel's writes
/// of a commit), with its runs and rows, summed since the process opened its first store and
/// written as JSON to the file `HERALD_SQLITE_PROFILE` names (`{pid}` in it: the process's id, so
/// that a CLI command beside the server keeps a file of its own), every second and when a store
/// closes. A statement is known by its first 100 characters (an `IN` list's length does not make
/// another). Off unless asked for: reading a thread's CPU clock is a system call.
final class SQLiteStatementProfile: Sendable {
    /// The process's profile, when `HERALD_SQLITE_PROFILE` names a file.
    static let shared = ProcessInfo.processInfo.environment["HERALD_SQLITE_PROFILE"].flatMap { path in
        path.isEmpty ? nil : SQLiteStatementProfile(path: path.replacingOccurrences(of: "{pid}", with: "\(getpid())"))
    }

    struct Totals: Codable, Equatable {
        /// Calls: a bulk run of many rows counts once.
        var runs = 0
        /// Rows of values bound: 1 for a single run, the rows of a bulk run.
        var rows = 0
        var nanoseconds = 0

        mutating func add(rows: Int, nanoseconds: Int) {
            runs += 1
            self.rows += rows
            self.nanoseconds += nanoseconds
        }
    }

    let path: String
    private let totals = Mutex<[String: Totals]>([:])

    init(path: String) {
        self.path = path
    }

    /// Runs `body`, charging its thread's CPU time to `statement` when profiling.
    static func measure<T>(_ statement: @autoclosure () -> String, rows: Int = 1, _ body: () throws -> T) rethrows -> T {
        guard let profile = shared else { return try body() }
        let start = threadNanoseconds()
        defer {
            let spent = threadNanoseconds() - start
            profile.add(statement(), rows: rows, nanoseconds: spent)
        }
        return try body()
    }

    func add(_ statement: String, rows: Int, nanoseconds: Int) {
        let key = Self.key(statement)
        totals.withLock { $0[key, default: Totals()].add(rows: rows, nanoseconds: nanoseconds) }
    }

    /// The totals so far, by statement.
    var snapshot: [String: Totals] { totals.withLock { $0 } }

    /// Writes the totals to ``path`` (whole: a reader never sees half a file).
    func write() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(snapshot).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Writes the totals every second until cancelled.
    func keepWriting() -> Task<Void, Never> {
        Task.detached(priority: .utility) {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                try? self.write()
            }
        }
    }

    /// A statement's name: its first 100 characters, its whitespace runs made one space.
    static func key(_ statement: String) -> String {
        statement.prefix(300).split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(100).description
    }

    static func threadNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
}
