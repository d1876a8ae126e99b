import Foundation
import HeraldCore
import HeraldModels
import HeraldTestSupport
import SQLKit
import Testing

@testable import HeraldStorage

/// Keys compare bytes on both back-ends: SQLite's text columns do by default; on PostgreSQL every
/// indexed text column is `COLLATE "C"` whatever locale the database was created in, so a key's
/// B-tree never calls strcoll and lists paged by a key come in the same order everywhere.
@Suite("Key collation")
struct KeyCollationTests {
    typealias Fixture = RepositoryTests.Fixture

    @Test(.enabled(if: TestBackend.available.contains(.postgres)))
    func everyIndexedTextColumnComparesBytesOnPostgres() async throws {
        let (store, _) = try await TestBackend.postgres.openStore()
        let other = try await store.lookup { db in
            try await db.raw(
                """
                SELECT DISTINCT c.relname || '.' || a.attname AS name
                FROM pg_index x
                JOIN pg_class c ON c.oid = x.indrelid
                JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (x.indkey)
                WHERE c.relnamespace = current_schema()::regnamespace AND a.atttypid = 'text'::regtype
                  AND a.attcollation <> 'pg_catalog."C"'::regcollation
                """
            ).rows().map { try $0.decode(column: "name", as: String.self) }
        }
        let keys = try await store.lookup { db in
            try await db.raw(
                """
                SELECT count(*) AS n FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                WHERE c.relname IN ('events', 'deliveries', 'users') AND c.relnamespace = current_schema()::regnamespace
                  AND a.attname IN ('id', 'uid', 'app_id') AND a.attcollation = 'pg_catalog."C"'::regcollation
                """
            ).first().map { try $0.decode(column: "n", as: Int.self) }
        }
        try await store.shutdown()
        #expect(other == [], "indexed text columns compared by the database's locale")
        // events.id, events.app_id, deliveries.id, deliveries.app_id, deliveries.uid, users.app_id, users.uid
        #expect(keys == 7)
    }

    /// Mixed case, punctuation and a non-ASCII letter: byte order puts "Bob" before "_x" before
    /// "alice", and "Émile" last; `en_US.utf8` (measured, keys in the database's collation) gave
    /// a_1, A-1, alice, bob, Bob, Émile, _x, zed, Zoë — case and punctuation weighed last.
    @Test(arguments: TestBackend.available)
    func membersArePagedInByteOrder(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        let uids = ["zed", "alice", "Émile", "Bob", "_x", "Zoë", "bob", "A-1", "a_1"]
        for uid in uids { try await f.user(uid) }
        _ = try await f.store.upsertGroup(appId: f.appId, Group(guid: "g1", name: "G", type: .public, createdAt: f.now, updatedAt: f.now))
        _ = try await f.store.addMembers(appId: f.appId, guid: "g1", uids: uids, scope: .participant, at: f.now)

        let byteOrder = uids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(byteOrder == ["A-1", "Bob", "Zoë", "_x", "a_1", "alice", "bob", "zed", "Émile"])
        #expect(try await f.memberUids("g1", pageSize: 2) == byteOrder)
        #expect(try await f.store.searchUsers(appId: f.appId, query: "", limit: 20).map(\.uid) == byteOrder)
        try await f.store.shutdown()
    }
}
