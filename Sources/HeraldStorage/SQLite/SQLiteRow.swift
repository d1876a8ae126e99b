import Foundation
import GRDB
import SQLKit

/// The column names of one statement's results, shared by its rows.
final class SQLiteColumns: Sendable {
    let names: [String]
    let index: [String: Int]

    init(names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
        self.index = index
    }
}

/// One result row, read whole on the database's thread.
struct SQLiteRow: SQLKit.SQLRow {
    let columns: SQLiteColumns
    let values: [DatabaseValue]

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.index[column] != nil }

    func value(_ column: String) throws -> DatabaseValue {
        guard let position = columns.index[column] else {
            throw DecodingError.keyNotFound(SQLiteColumnKey(column), .init(codingPath: [], debugDescription: "no column \(column) in the row"))
        }
        return values[position]
    }

    func decodeNil(column: String) throws -> Bool {
        try value(column).isNull
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let value = try self.value(column)
        func mismatch() -> DecodingError {
            .typeMismatch(D.self, .init(codingPath: [SQLiteColumnKey(column)], debugDescription: "column \(column) holds \(value)"))
        }
        switch value.storage {
        case .string(let text):
            if let text = text as? D { return text }
        case .int64(let number):
            if D.self == Int64.self { return number as! D }
            if D.self == Int.self { return Int(number) as! D }
            if D.self == Bool.self { return (number != 0) as! D }
            if D.self == Int32.self { return Int32(truncatingIfNeeded: number) as! D }
            if D.self == Double.self { return Double(number) as! D }
        case .double(let number):
            if D.self == Double.self { return number as! D }
        case .blob(let data):
            if let data = data as? D { return data }
        case .null:
            break
        }
        guard !value.isNull || D.self is any ExpressibleByNilLiteral.Type else { throw mismatch() }
        return try D(from: SQLiteValueDecoder(value: value, column: column))
    }
}

struct SQLiteColumnKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Decodes one column's value into a type the fast paths do not cover (optionals, raw
/// representable enums, other integer widths).
private struct SQLiteValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: DatabaseValue
    let column: String
    var codingPath: [any CodingKey] { [SQLiteColumnKey(column)] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "a column holds a single value"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a column holds a single value"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value.isNull }

    private func integer() throws -> Int64 {
        if case .int64(let number) = value.storage { return number }
        throw DecodingError.typeMismatch(Int64.self, .init(codingPath: codingPath, debugDescription: "column \(column) holds \(value)"))
    }

    func decode(_ type: Bool.Type) throws -> Bool { try integer() != 0 }
    func decode(_ type: String.Type) throws -> String {
        if case .string(let text) = value.storage { return text }
        throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "column \(column) holds \(value)"))
    }
    func decode(_ type: Double.Type) throws -> Double {
        switch value.storage {
        case .double(let number): return number
        case .int64(let number): return Double(number)
        default: throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "column \(column) holds \(value)"))
        }
    }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { Int(try integer()) }
    func decode(_ type: Int8.Type) throws -> Int8 { Int8(truncatingIfNeeded: try integer()) }
    func decode(_ type: Int16.Type) throws -> Int16 { Int16(truncatingIfNeeded: try integer()) }
    func decode(_ type: Int32.Type) throws -> Int32 { Int32(truncatingIfNeeded: try integer()) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    func decode(_ type: UInt.Type) throws -> UInt { UInt(truncatingIfNeeded: try integer()) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { UInt8(truncatingIfNeeded: try integer()) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { UInt16(truncatingIfNeeded: try integer()) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { UInt32(truncatingIfNeeded: try integer()) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { UInt64(bitPattern: try integer()) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}
