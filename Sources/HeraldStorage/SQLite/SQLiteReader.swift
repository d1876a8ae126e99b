import Foundation
import GRDB
import Logging
import NIOCore
import NIOPosix
import SQLKit

/// Reads on the pool's read-only connections, alongside the writer (WAL): each statement runs
/// on a reader's thread and its rows come back together.
struct SQLiteReader: SQLDatabase {
    let pool: DatabasePool
    let logger: Logger

    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { HeraldSQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLKit.SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLKit.SQLRow) -> Void) async throws {
        for row in try await readRows(query) { onRow(row) }
    }

    func readRows(_ query: any SQLKit.SQLExpression) async throws -> [SQLiteRow] {
        let (sql, binds) = serialize(query)
        return try await withCheckedThrowingContinuation { continuation in
            pool.asyncUnsafeRead { result in
                continuation.resume(with: Result { try SQLiteStatements.run(sql, binds: binds, on: try result.get()) })
            }
        }
    }
}
