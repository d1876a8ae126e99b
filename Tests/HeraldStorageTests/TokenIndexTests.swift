import Foundation
import HeraldTestSupport
import SQLKit
import Testing

@testable import HeraldStorage

/// On PostgreSQL each statement on push tokens names the app and one more key, and has exactly
/// one index to take: none leads with app_id. With two led by app_id, the planner picked between
/// them by its guess of the app's size, which for an app it knows nothing of is one row, and a
/// registration could read every token of the app.
@Suite("Token indexes")
struct TokenIndexTests {
    @Test(.enabled(if: TestBackend.available.contains(.postgres)))
    func noIndexOfPushTokensLeadsWithTheApp() async throws {
        let (store, _) = try await TestBackend.postgres.openStore()
        let leading = try await store.lookup { db in
            try await db.raw(
                """
                SELECT i.relname AS name, a.attname AS first_column
                FROM pg_index x
                JOIN pg_class i ON i.oid = x.indexrelid
                JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[0]
                WHERE x.indrelid = 'push_tokens'::regclass
                """
            ).rows().map { (try $0.decode(column: "name", as: String.self), try $0.decode(column: "first_column", as: String.self)) }
        }
        try await store.shutdown()
        #expect(
            Dictionary(uniqueKeysWithValues: leading) == [
                "push_tokens_pkey": "push_token",
                "push_tokens_by_user": "uid",
                "push_tokens_by_session": "session_id",
                "push_tokens_by_provider": "provider_id",
            ]
        )
    }
}
