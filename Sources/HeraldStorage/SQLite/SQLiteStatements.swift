import Foundation
import GRDB
import SQLKit

/// Runs one serialized statement on a GRDB connection and reads its rows whole, on the
/// connection's own thread: the caller gets them back once, never a task per row. Statements
/// are prepared once and kept (GRDB's statement cache), but for the long lists of binds that
/// vary with every call (`IN (…)` of a batch), which are prepared each time.
enum SQLiteStatements {
    static let cachedBindLimit = 32

    static func run(_ sql: String, binds: [any Encodable & Sendable], on db: Database) throws -> [SQLiteRow] {
        let statement = binds.count <= cachedBindLimit ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        var values: [DatabaseValue] = []
        values.reserveCapacity(binds.count)
        for bind in binds { values.append(try SQLiteValues.databaseValue(bind)) }
        statement.setUncheckedArguments(StatementArguments(values))
        let width = statement.columnCount
        guard width > 0 else {
            try statement.execute()
            return []
        }
        let columns = SQLiteColumns(names: statement.columnNames)
        let cursor = try Row.fetchCursor(statement)
        var rows: [SQLiteRow] = []
        while try cursor.next() != nil {
            var row: [DatabaseValue] = []
            row.reserveCapacity(width)
            for index in 0..<CInt(width) { row.append(SQLiteValues.column(statement.sqliteStatement, index)) }
            rows.append(SQLiteRow(columns: columns, values: row))
        }
        return rows
    }

    /// One prepared statement run once per row of values (bulk inserts and updates); the rows
    /// each run returns (`RETURNING`), in order.
    @discardableResult
    static func runEach(_ sql: String, rows: [[DatabaseValue]], on db: Database) throws -> [SQLiteRow] {
        let statement = try db.cachedStatement(sql: sql)
        let width = statement.columnCount
        let columns = width > 0 ? SQLiteColumns(names: statement.columnNames) : nil
        var returned: [SQLiteRow] = []
        for row in rows {
            statement.setUncheckedArguments(StatementArguments(row))
            guard let columns else {
                try statement.execute()
                continue
            }
            let cursor = try Row.fetchCursor(statement)
            while try cursor.next() != nil {
                var values: [DatabaseValue] = []
                values.reserveCapacity(width)
                for index in 0..<CInt(width) { values.append(SQLiteValues.column(statement.sqliteStatement, index)) }
                returned.append(SQLiteRow(columns: columns, values: values))
            }
        }
        return returned
    }
}
