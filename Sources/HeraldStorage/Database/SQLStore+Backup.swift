import Foundation
import HeraldCore
import SQLKit

/// Backups of a SQLite database taken while the server keeps serving, and restores of them.
/// (PostgreSQL has its own tools: `pg_dump -Fc` and `pg_restore`, as the README shows.)
extension SQLStore {
    /// Writes a consistent copy of the database to `path` with SQLite's `VACUUM INTO`: one read
    /// transaction, so writers go on meanwhile and the copy is the database as of its start. The
    /// copy has the page size of a new database (``SQLitePool/pageSize``), whatever the original's.
    public func backup(to path: String) async throws {
        guard dialect == .sqlite else {
            throw HeraldError(
                .badRequest,
                code: "use_pg_dump",
                "a PostgreSQL database is backed up with its own tools: pg_dump -Fc -f herald.dump DATABASE_URL (restore with pg_restore)"
            )
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw HeraldError.invalidField("to", "\(path) exists: choose a new file")
        }
        let quoted = path.replacingOccurrences(of: "'", with: "''")
        let pageSize = "PRAGMA page_size = \(SQLitePool.pageSize)"
        try await lookup { db in
            try await db.raw(SQLQueryString(pageSize)).perform()
            try await db.raw(SQLQueryString("VACUUM INTO '\(quoted)'")).perform()
        }
    }

    /// The schema version of a database, and whether SQLite finds it intact.
    public func check() async throws -> (version: Int, intact: Bool) {
        let dialect = self.dialect
        return try await lookup { db in
            let version = try await db.raw("SELECT MAX(version) AS v FROM herald_migrations").firstRow().map { try $0.int("v") } ?? 0
            var intact = true
            if dialect == .sqlite {
                intact = try await db.raw("PRAGMA integrity_check").firstRow()?.string("integrity_check") == "ok"
            }
            return (version, intact)
        }
    }

    /// Puts a backup in place of the SQLite database at `target` (which must not exist unless
    /// `replace`), after checking it is an intact Herald database; then migrates it to this
    /// version's schema. Returns the schema version the backup had.
    public static func restore(from backup: String, to target: DatabaseURL, replace: Bool) async throws -> Int {
        guard case .sqlite(let path) = target else {
            throw HeraldError(.badRequest, code: "use_pg_restore", "a PostgreSQL database is restored with pg_restore -d DATABASE_URL herald.dump")
        }
        guard FileManager.default.isReadableFile(atPath: backup) else { throw HeraldError.invalidField("from", "\(backup) cannot be read") }
        let files = FileManager.default
        if files.fileExists(atPath: path) {
            guard replace else {
                throw HeraldError.invalidField(
                    "database",
                    "\(path) exists: stop Herald and pass --force to replace it, or restore into a new data folder"
                )
            }
        }
        let source = try await SQLStore.open(.sqlite(path: backup), migrate: false)
        let found: (version: Int, intact: Bool)
        do {
            found = try await source.check()
            try await source.shutdown()
        } catch {
            try? await source.shutdown()
            throw HeraldError.invalidField("from", "\(backup) is not a Herald database (\(error))")
        }
        guard found.intact, found.version > 0 else { throw HeraldError.invalidField("from", "\(backup) is damaged or not a Herald database") }
        try files.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: path + suffix) { try files.removeItem(atPath: path + suffix) }
        try files.copyItem(atPath: backup, toPath: path)
        let restored = try await SQLStore.open(target)
        try await restored.shutdown()
        return found.version
    }
}
