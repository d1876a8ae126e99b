import Foundation
import GRDB
import Logging
import NIOCore
import NIOPosix
import SQLKit

/// The writer's connection as an `SQLDatabase`, for the bodies of writes. Called from the
/// writer's executor (as Herald's repositories do, through `rows`, `perform` and `bulk`), a
/// statement runs at once on the connection; called from elsewhere (SQLKit's own async API),
/// it hops to the writer first.
struct SQLiteWriterSession: SQLDatabase {
    let writer: SQLiteWriter

    var logger: Logger { writer.logger }
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { HeraldSQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLKit.SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLKit.SQLRow) -> Void) async throws {
        let (sql, binds) = serialize(query)
        for row in try await writer.run(sql, binds: binds) { onRow(row) }
    }

    /// Runs a statement now; only on the writer's executor.
    func rowsNow(_ query: any SQLKit.SQLExpression) throws -> [SQLiteRow] {
        guard let db = writer.executor.database else { throw HeraldStorageError.writerUnavailable }
        let (sql, binds) = serialize(query)
        return try SQLiteStatements.run(sql, binds: binds, on: db)
    }

    /// Runs one prepared statement per row now; only on the writer's executor.
    func runEachNow(_ sql: String, rows: [[BulkValue]]) throws -> [SQLiteRow] {
        guard let db = writer.executor.database else { throw HeraldStorageError.writerUnavailable }
        return try SQLiteStatements.runEach(sql, rows: rows, on: db)
    }
}
