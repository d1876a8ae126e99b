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
        let writerPragmas = [
            "PRAGMA cache_size = -65536", "PRAGMA temp_store = MEMORY", "PRAGMA wal_autocheckpoint = \(SQLiteCheckpointer.writerLimit)",
        ]
        configuration.prepareDatabase { db in
            try db.execute(sql: db.configuration.readonly ? "PRAGMA cache_size = -16384" : writerPragmas.joined(separator: "; "))
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
