import Foundation
import NIOCore
import PostgresNIO
import SQLKit

/// A value of a row written in bulk.
enum BulkValue: Sendable, Equatable {
    case null
    case int(Int64)
    case text(String)
    case bool(Bool)

    init(_ text: String?) { self = text.map(BulkValue.text) ?? .null }
    init(_ number: Int?) { self = number.map { .int(Int64($0)) } ?? .null }
    init(_ number: Int64?) { self = number.map(BulkValue.int) ?? .null }
    init(_ flag: Bool) { self = .bool(flag) }
}

/// A column written in bulk, with its SQL type (PostgreSQL's arrays are typed).
struct BulkColumn: Sendable, Hashable {
    enum Kind: String, Sendable {
        case text, bigint, integer, boolean
    }

    var name: String
    var kind: Kind

    static func text(_ name: String) -> BulkColumn { BulkColumn(name: name, kind: .text) }
    static func bigint(_ name: String) -> BulkColumn { BulkColumn(name: name, kind: .bigint) }
    static func integer(_ name: String) -> BulkColumn { BulkColumn(name: name, kind: .integer) }
    static func boolean(_ name: String) -> BulkColumn { BulkColumn(name: name, kind: .boolean) }
}

/// What an insert in bulk does with a row whose key is taken.
enum BulkConflict: Sendable {
    /// Fails the statement.
    case fail
    /// Keeps the row already there.
    case ignore
    /// Keeps the row already there when the unique index on `columns` holds it; a clash with any
    /// other unique index fails the statement. Named, PostgreSQL checks that one index before
    /// each insert instead of every unique index of the table.
    case ignoreDuplicate(of: [String])
    /// Updates the row already there: `set` in SQL, `excluded.<column>` naming the new values.
    case update(keys: [String], set: String)

    var clause: String {
        switch self {
        case .fail: ""
        case .ignore: " ON CONFLICT DO NOTHING"
        case .ignoreDuplicate(let columns): " ON CONFLICT (\(columns.joined(separator: ", "))) DO NOTHING"
        case .update(let keys, let set): " ON CONFLICT (\(keys.joined(separator: ", "))) DO UPDATE SET \(set)"
        }
    }
}

/// Rows written in bulk, one way per database: on SQLite one prepared statement run per row
/// inside the writer's transaction (cheaper than one statement of thousands of binds); on
/// PostgreSQL one statement over the rows as typed arrays (`unnest($1::text[], $2::bigint[], …)`),
/// one round trip for them all.
extension SQLDatabase {
    /// Inserts the rows; returns what `returning` names of each row stored (nothing when nil).
    @discardableResult
    func insert(
        into table: String,
        columns: [BulkColumn],
        rows: [[BulkValue]],
        conflict: BulkConflict,
        returning: String? = nil
    ) async throws -> [any SQLRow] {
        guard !rows.isEmpty else { return [] }
        let names = columns.map(\.name).joined(separator: ", ")
        let tail = conflict.clause + (returning.map { " RETURNING \($0)" } ?? "")
        if dialect.name == "sqlite" {
            let values = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            return try await each("INSERT INTO \(table) (\(names)) VALUES (\(values))\(tail)", rows: rows)
        }
        let (arrays, binds) = PostgresBulkArray.arrays(columns, rows)
        return try await self.rows(RawStatement("INSERT INTO \(table) (\(names)) SELECT * FROM unnest(\(arrays))\(tail)", binds))
    }

    /// Updates rows by `key`: each of `set` is a column and its new value in SQL, where `$new`
    /// stands for the row's value of that column (`COALESCE($new, deliveries.provider_status)`),
    /// or a value of its own (`NULL`). Each row holds the key first, then the values of the
    /// columns whose SQL names `$new`, in order.
    func update(_ table: String, key: BulkColumn, set: [(BulkColumn, String)], rows: [[BulkValue]]) async throws {
        guard !rows.isEmpty else { return }
        if dialect.name == "sqlite" {
            let assignments = set.map { "\($0.0.name) = " + $0.1.replacingOccurrences(of: "$new", with: "?") }.joined(separator: ", ")
            // The key comes last in the statement.
            let reordered = rows.map { Array($0.dropFirst()) + [$0[0]] }
            try await each("UPDATE \(table) SET \(assignments) WHERE \(key.name) = ?", rows: reordered)
            return
        }
        let columns = [key] + set.filter { $0.1.contains("$new") }.map(\.0)
        let (arrays, binds) = PostgresBulkArray.arrays(columns, rows)
        let assignments = set.map { "\($0.0.name) = " + $0.1.replacingOccurrences(of: "$new", with: "v.\($0.0.name)") }.joined(separator: ", ")
        let names = columns.map(\.name).joined(separator: ", ")
        try await perform(
            RawStatement(
                "UPDATE \(table) SET \(assignments) FROM unnest(\(arrays)) AS v(\(names)) WHERE \(table).\(key.name) = v.\(key.name)",
                binds
            )
        )
    }

    /// One statement run once per row (SQLite), with what each returned.
    @discardableResult
    private func each(_ sql: String, rows: [[BulkValue]]) async throws -> [any SQLRow] {
        if let writer = self as? SQLiteWriterSession { return try writer.runEachNow(sql, rows: rows) }
        var returned: [any SQLRow] = []
        for row in rows { returned += try await self.rows(RawStatement(sql, row.map(Self.bind))) }
        return returned
    }

    private static func bind(_ value: BulkValue) -> any Encodable & Sendable {
        switch value {
        case .null: String?.none
        case .int(let number): number
        case .text(let text): text
        case .bool(let flag): flag
        }
    }
}

/// A column of rows written in bulk, bound to PostgreSQL as a typed array in the binary format
/// (`$1::text[]`): no text to escape here and no array literal to parse on the server.
struct PostgresBulkArray: PostgresThrowingDynamicTypeEncodable, Encodable, Sendable {
    let kind: BulkColumn.Kind
    let values: [BulkValue]

    /// `$1::text[], $2::bigint[], …` and each column's values.
    static func arrays(_ columns: [BulkColumn], _ rows: [[BulkValue]]) -> (String, [any Encodable & Sendable]) {
        var casts: [String] = []
        var binds: [any Encodable & Sendable] = []
        for (index, column) in columns.enumerated() {
            casts.append("$\(index + 1)::\(column.kind.rawValue)[]")
            binds.append(PostgresBulkArray(kind: column.kind, values: rows.map { $0[index] }))
        }
        return (casts.joined(separator: ", "), binds)
    }

    var psqlType: PostgresDataType {
        switch kind {
        case .text: .textArray
        case .bigint: .int8Array
        case .integer: .int4Array
        case .boolean: .boolArray
        }
    }

    var psqlFormat: PostgresFormat { .binary }

    private var elementType: PostgresDataType {
        switch kind {
        case .text: .text
        case .bigint: .int8
        case .integer: .int4
        case .boolean: .bool
        }
    }

    /// PostgreSQL's binary array: dimensions, whether any element is NULL, the element type, the
    /// one dimension's length and lower bound, then each element as its length (-1 for NULL) and
    /// its bytes.
    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) throws {
        buffer.writeInteger(Int32(values.isEmpty ? 0 : 1))
        buffer.writeInteger(Int32(values.contains(.null) ? 1 : 0))
        buffer.writeInteger(elementType.rawValue)
        guard !values.isEmpty else { return }
        buffer.writeInteger(Int32(values.count))
        buffer.writeInteger(Int32(1))
        for value in values {
            switch (kind, value) {
            case (_, .null):
                buffer.writeInteger(Int32(-1))
            case (.text, .text(let text)):
                Self.write(text, into: &buffer)
            case (.text, .int(let number)):
                Self.write(String(number), into: &buffer)
            case (.bigint, .int(let number)):
                buffer.writeInteger(Int32(8))
                buffer.writeInteger(number)
            case (.integer, .int(let number)):
                guard let small = Int32(exactly: number) else { throw BulkValueMismatch(kind: kind, value: value) }
                buffer.writeInteger(Int32(4))
                buffer.writeInteger(small)
            case (.boolean, .bool(let flag)):
                buffer.writeInteger(Int32(1))
                buffer.writeInteger(UInt8(flag ? 1 : 0))
            default:
                throw BulkValueMismatch(kind: kind, value: value)
            }
        }
    }

    /// A text element: its length, then its UTF-8 bytes.
    private static func write(_ text: String, into buffer: inout ByteBuffer) {
        let lengthAt = buffer.writerIndex
        buffer.writeInteger(Int32(0))
        let length = buffer.writeString(text)
        buffer.setInteger(Int32(length), at: lengthAt)
    }

    /// Only ever bound through PostgresKit, which takes the binary encoding above.
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            self,
            .init(codingPath: encoder.codingPath, debugDescription: "a bulk column is bound only in PostgreSQL's binary array format")
        )
    }
}

/// A value that its column's type cannot hold (a bug in the caller, never the user's input).
struct BulkValueMismatch: Error, CustomStringConvertible {
    let kind: BulkColumn.Kind
    let value: BulkValue
    var description: String { "a \(kind.rawValue) column cannot hold \(value)" }
}

/// A statement written whole, with its placeholders (`?` or `$n`) and the values they take.
struct RawStatement: SQLExpression {
    var sql: String
    var binds: [any Encodable & Sendable]

    init(_ sql: String, _ binds: [any Encodable & Sendable]) {
        self.sql = sql
        self.binds = binds
    }

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(sql)
        serializer.binds += binds
    }
}
