import Foundation
import GRDB
import GRDBSQLite
import SQLKit

/// Runs one serialized statement on a GRDB connection and reads its rows whole, on the
/// connection's own thread: the caller gets them back once, never a task per row. Statements
/// are prepared once and kept (GRDB's statement cache), but for the long lists of binds that
/// vary with every call (`IN (…)` of a batch), which are prepared each time.
///
/// Values are bound and rows stepped with SQLite's own calls, not through GRDB's
/// `StatementArguments` and cursors: measured on the engine's bulk inserts, building the
/// arguments cost several times what SQLite spent storing the row. Only statements without a
/// transaction effect come here (`BEGIN`, `SAVEPOINT` and their ends go through GRDB, which
/// keeps track of them).
enum SQLiteStatements {
    static let cachedBindLimit = 32

    static func run(_ sql: String, binds: [any Encodable & Sendable], on db: Database) throws -> [SQLiteRow] {
        try SQLiteStatementProfile.measure(sql) {
            let statement = binds.count <= cachedBindLimit ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
            let handle = statement.sqliteStatement
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            for (offset, bind) in binds.enumerated() {
                try check(SQLiteValues.bind(bind, at: CInt(offset + 1), to: handle), sql, db)
            }
            var rows: [SQLiteRow] = []
            try step(statement, sql: sql, db: db, into: &rows)
            return rows
        }
    }

    /// One prepared statement run once per row of values (bulk inserts and updates); the rows
    /// each run returns (`RETURNING`), in order.
    @discardableResult
    static func runEach(_ sql: String, rows: [[BulkValue]], on db: Database) throws -> [SQLiteRow] {
        try SQLiteStatementProfile.measure(sql, rows: rows.count) {
            let statement = try db.cachedStatement(sql: sql)
            let handle = statement.sqliteStatement
            var returned: [SQLiteRow] = []
            // By index: `for row in rows` and `enumerated()` would copy each row and each of its
            // values (a retain per text column, ~50 a 1:1 push).
            for row in rows.indices {
                sqlite3_reset(handle)
                for column in rows[row].indices {
                    try check(SQLiteValues.bind(rows[row][column], at: CInt(column + 1), to: handle), sql, db)
                }
                try step(statement, sql: sql, db: db, into: &returned)
            }
            return returned
        }
    }

    /// Steps a bound statement to its end, appending the rows it returns; leaves it reset (so
    /// that it holds no lock while it waits in the cache).
    private static func step(_ statement: Statement, sql: String, db: Database, into rows: inout [SQLiteRow]) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        let width = CInt(statement.columnCount)
        var columns: SQLiteColumns?
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                try check(code, sql, db)
                return
            }
            if columns == nil { columns = SQLiteColumns(names: statement.columnNames) }
            var values: [DatabaseValue] = []
            values.reserveCapacity(Int(width))
            for index in 0..<width { values.append(SQLiteValues.column(handle, index)) }
            rows.append(SQLiteRow(columns: columns!, values: values))
        }
    }

    private static func check(_ code: CInt, _ sql: String, _ db: Database) throws {
        guard code != SQLITE_OK else { return }
        let message = sqlite3_errmsg(db.sqliteConnection).map { String(cString: $0) }
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }
}
