import Foundation
import SQLKit
import Synchronization

/// How Herald's repositories run statements: on SQLite's writer, at once on the writer's thread
/// (inside the tick's transaction, with no hop per statement); on SQLite's readers, one hop to a
/// reader per statement; on PostgreSQL, through PostgresNIO. They run on the caller's executor
/// (`nonisolated(nonsending)`), where SQLKit's own `run()`/`all()` would hop to the global one.
extension SQLDatabase {
    nonisolated(nonsending) func rows(_ query: any SQLExpression) async throws -> [any SQLRow] {
        if let writer = self as? SQLiteWriterSession { return try writer.rowsNow(query) }
        if let reader = self as? SQLiteReader { return try await reader.readRows(query) }
        let collected = Mutex<[any SQLRow]>([])
        try await execute(sql: query) { row in collected.withLock { $0.append(row) } }
        return collected.withLock { $0 }
    }

    nonisolated(nonsending) func perform(_ query: any SQLExpression) async throws {
        _ = try await rows(query)
    }
}

extension SQLQueryBuilder {
    /// Runs the statement (SQLKit's `run()`, on the caller's executor).
    nonisolated(nonsending) func perform() async throws {
        try await database.perform(query)
    }
}

extension SQLQueryFetcher {
    /// Every row (SQLKit's `all()`, on the caller's executor).
    nonisolated(nonsending) func rows() async throws -> [any SQLRow] {
        try await database.rows(query)
    }

    /// The first row, if any (SQLKit's `first()`; the statement is run as written, so give it
    /// a LIMIT where many rows could match).
    nonisolated(nonsending) func firstRow() async throws -> (any SQLRow)? {
        try await database.rows(query).first
    }
}
