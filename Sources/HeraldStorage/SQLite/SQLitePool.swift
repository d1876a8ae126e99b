import CSQLiteSettings
import Foundation
import GRDB
import GRDBSQLite
import Logging
import SQLKit

/// SQLite through GRDB: one `DatabasePool` on the file (WAL: one writer, readers that see the
/// last commit while it writes), every write through the group-committing ``SQLiteWriter`` and
/// every read on a reader connection. It links the system's SQLite.
final class SQLitePool: Sendable {
    let pool: DatabasePool
    let writer: SQLiteWriter
    let reader: SQLiteReader
    let checkpointer: SQLiteCheckpointer
    /// Writes the statement profile every second, when one is kept.
    let profileWriter: Task<Void, Never>?

    /// SQLite's process-wide settings, made before the process's first connection opens: no
    /// memory statistics, which Herald never reads and for which every allocation SQLite makes
    /// took a process-wide mutex to count itself (measured on the 1:1 load with sql-costs.sh: the
    /// engine's inserts ~15 % less CPU). SQLite's result: `SQLITE_MISUSE` if it was used before.
    static let processSettings = herald_sqlite_disable_memory_statistics()

    /// The page size of a new database, 8 KB (SQLite's default is 4 KB). An existing database
    /// keeps its own (SQLite fixes it with the first table); a backup is written with this one,
    /// so restoring one moves an older database to it. A commit writes each page it changed to
    /// the WAL, a `pwrite` and a checksum each: a batch's rows fill half as many pages. Measured
    /// on the 1:1 load, 4 KB / 8 KB / 16 KB: a push's COMMIT 2.9–3.0 / 1.8–2.0 / 1.7 µs and its
    /// statements 17.0–17.3 / 15.6–16.0 / 15.0 µs (sql-costs.sh); server CPU a push over six
    /// interleaved runs, median 59.5 / 58 / 58 µs. Token registrations, which write one user's
    /// rows at random places, stayed at ~7,490/s with 8 KB and fell to 6,670/s with 16 KB (each
    /// page written whole): 8 KB.
    static let pageSize = 8_192

    init(path: String, readers: Int = 4, logger: Logger) throws {
        if Self.processSettings != SQLITE_OK {
            logger.debug("SQLite was in use before its settings were made", metadata: ["code": "\(Self.processSettings)"])
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var configuration = Configuration()
        configuration.label = "herald"
        configuration.maximumReaderCount = readers
        // The CLI (a backup, a key made) shares the file with a running server: wait for its writer.
        configuration.busyMode = .timeout(5)
        configuration.foreignKeysEnabled = false
        configuration.persistentReadOnlyConnections = true
        // SQLite keeps 2 MB of pages per connection unless told: a campaign's writes to 100,000
        // users' rows and their indexes outgrew it and read pages back from the file (measured:
        // items stored in 11.9 s with 2 MB, 10.0 s with 64 MB). The writer keeps up to 64 MB,
        // each reader 16 MB. The writer's statement journals (each write of a tick runs in a
        // savepoint, which keeps the first change of each page it touches) stay in memory: in a
        // temporary file they were a pwrite per page, half of a campaign's b-tree inserts.
        configuration.prepareDatabase { db in
            guard !db.configuration.readonly else { return try db.execute(sql: "PRAGMA cache_size = -16384") }
            // Before the pool turns WAL on: a new database takes the page size only until then.
            try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? Self.pageSize
            try db.execute(
                sql: """
                    PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;
                    PRAGMA wal_autocheckpoint = \(SQLiteCheckpointer.writerLimit / pageSize)
                    """
            )
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        writer = SQLiteWriter(pool: pool, logger: logger)
        reader = SQLiteReader(pool: pool, logger: logger)
        checkpointer = try SQLiteCheckpointer(path: path, logger: logger)
        profileWriter = SQLiteStatementProfile.shared?.keepWriting()
    }

    func close() async throws {
        try await checkpointer.stop()
        try pool.close()
        profileWriter?.cancel()
        try SQLiteStatementProfile.shared?.write()
    }
}
