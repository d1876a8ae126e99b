import Foundation
import GRDBSQLite
import HeraldCore
import HeraldTestSupport
import SQLKit
import Testing

@testable import HeraldStorage

/// SQLite's process-wide settings are made before the process's first connection: the store is
/// the only way in, so they hold however the tests are ordered.
@Suite("SQLite settings")
struct SQLiteSettingsTests {
    @Test
    func memoryStatisticsAreOffOnceAStoreIsOpen() async throws {
        let (store, _) = try await TestBackend.sqlite.openStore()
        _ = try await store.apps()
        #expect(SQLitePool.processSettings == SQLITE_OK)
        // SQLite counts nothing: no allocation took its process-wide mutex to be counted.
        #expect(sqlite3_memory_used() == 0)
        #expect(sqlite3_memory_highwater(0) == 0)
    }

    /// A value of a `PRAGMA` as the writer's connection (`write`) or a reader's sees it.
    static func pragma<Value: Decodable & Sendable>(
        _ name: String,
        of store: SQLStore,
        as type: Value.Type = Int.self,
        writer: Bool = false
    ) async throws -> Value? {
        // Each closure runs where its connection is (the writer's thread, a reader's).
        let sql = SQLQueryString("PRAGMA " + name)
        if writer { return try await store.write { db in try await db.raw(sql).firstRow()?.decode(column: name, as: Value.self) } }
        return try await store.lookup { db in try await db.raw(sql).firstRow()?.decode(column: name, as: Value.self) }
    }

    @Test
    func aNewDatabaseHasEightKilobytePagesAnOlderOneItsOwnUntilABackupOfItIsRestored() async throws {
        let folder = TestScratch.path("herald-pages").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fresh = try await SQLStore.open(.sqlite(path: folder + "/new.sqlite"))
        #expect(try await Self.pragma("page_size", of: fresh) == 8192)
        #expect(try await Self.pragma("journal_mode", of: fresh, as: String.self) == "wal")
        #expect(try await Self.pragma("wal_autocheckpoint", of: fresh, writer: true) == 8192, "64 MB of 8 KB pages")
        try await fresh.shutdown()

        // A database made before: SQLite's 4 KB pages, fixed by its first table.
        let old = folder + "/old.sqlite"
        var handle: OpaquePointer?
        #expect(sqlite3_open(old, &handle) == SQLITE_OK)
        let made = sqlite3_exec(
            handle,
            """
            PRAGMA page_size = 4096; PRAGMA journal_mode = WAL;
            CREATE TABLE herald_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
            """,
            nil,
            nil,
            nil
        )
        #expect(made == SQLITE_OK)
        sqlite3_close(handle)
        let store = try await SQLStore.open(.sqlite(path: old))
        #expect(try await Self.pragma("page_size", of: store) == 4096, "an existing database keeps its pages")
        #expect(try await Self.pragma("wal_autocheckpoint", of: store, writer: true) == 16384, "64 MB of 4 KB pages")
        let app = App(id: "app_pages", name: "Pages", region: "us", createdAt: Date())
        try await store.createApp(app, firstKeyId: "key_pages", keyHash: "hash_pages")
        try await store.backup(to: folder + "/backup.sqlite")
        try await store.shutdown()

        let restored = folder + "/restored.sqlite"
        _ = try await SQLStore.restore(from: folder + "/backup.sqlite", to: .sqlite(path: restored), replace: false)
        let moved = try await SQLStore.open(.sqlite(path: restored))
        #expect(try await Self.pragma("page_size", of: moved) == 8192, "restored from a backup, it has the new pages")
        #expect(try await moved.app(id: "app_pages")?.name == "Pages")
        try await moved.shutdown()
    }
}
