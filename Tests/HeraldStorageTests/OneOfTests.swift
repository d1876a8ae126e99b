import Foundation
import HeraldCore
import HeraldTestSupport
import SQLKit
import Testing

@testable import HeraldStorage

/// `column IN (values)` as the repositories write it (``SQLStore/oneOf(_:_:)``): on SQLite one
/// JSON array bind, on PostgreSQL a bind each. Either way it finds exactly the rows whose value is
/// in the list, whatever characters the values hold.
@Suite("One of a list")
struct OneOfTests {
    typealias Fixture = RepositoryTests.Fixture

    static let awkward = ["ana", "o'brien", #"back\slash"#, #"say "hi""#, "tab\there", "new\nline", "zoë", "名前", "emoji 🎉", "[1,2]", ""]

    @Test(arguments: TestBackend.available)
    func findsExactlyTheRowsWhoseValueIsListed(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        for uid in Self.awkward + ["bob", "ana2", "zoe"] { try await f.user(uid) }
        let store = f.store
        func found(_ list: [String]) async throws -> Set<String> {
            let appId = f.appId
            return Set(
                try await store.lookup { db in
                    try await db.select().column("uid").from("users").where("app_id", .equal, appId).where(store.oneOf("uid", list)).rows()
                }.map { try $0.string("uid") }
            )
        }
        #expect(try await found(Self.awkward) == Set(Self.awkward))
        #expect(try await found(["bob", "nobody", "zoë"]) == ["bob", "zoë"])
        #expect(try await found(["nobody"]).isEmpty)
        #expect(try await found([]).isEmpty)
    }

    /// On SQLite a list of any length is one bind: the statement's text stays the same and its
    /// prepared statement is kept.
    @Test
    func sqliteKeepsOneStatementTextForEveryList() async throws {
        let f = try await Fixture.make(.sqlite)
        let store = f.store
        let (short, long) = try await store.lookup { db in
            let query = { (list: [String]) in db.serialize(db.select().column("uid").from("users").where(store.oneOf("uid", list)).query) }
            return (query(["a"]), query((0..<400).map { "u\($0)" }))
        }
        #expect(short.sql == long.sql)
        #expect(short.binds.count == 1 && long.binds.count == 1)
        #expect(long.binds.count <= SQLiteStatements.cachedBindLimit)
        #expect(SQLStore.jsonArray([]) == "[]")
        #expect(SQLStore.jsonArray(["a", #"q"uote"#, "new\nline"]) == #"["a","q\"uote","new\nline"]"#)
    }
}
