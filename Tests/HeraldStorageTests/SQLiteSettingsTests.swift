import GRDBSQLite
import HeraldTestSupport
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
}
