import Foundation
import GRDB
import GRDBSQLite

/// Values between Swift and SQLite: SQLKit's binds to GRDB's `DatabaseValue`, and a stepped
/// statement's columns read straight from SQLite.
enum SQLiteValues {
    /// A bind as SQLite stores it: the common types by a cast, anything else through its
    /// `Encodable` conformance (an absent optional encodes as NULL).
    static func databaseValue(_ bind: any Encodable) throws -> DatabaseValue {
        switch bind {
        case let text as String: return text.databaseValue
        case let number as Int: return Int64(number).databaseValue
        case let number as Int64: return number.databaseValue
        case let flag as Bool: return Int64(flag ? 1 : 0).databaseValue
        case let number as Double: return number.databaseValue
        case let number as Int32: return Int64(number).databaseValue
        case let data as Data: return data.databaseValue
        default:
            let encoder = SingleValueEncoder()
            try bind.encode(to: encoder)
            return encoder.value
        }
    }

    /// Column `index` of the row `statement` was just stepped to.
    static func column(_ statement: SQLiteStatement, _ index: CInt) -> DatabaseValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return sqlite3_column_int64(statement, index).databaseValue
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes = sqlite3_column_text(statement, index) else { return "".databaseValue }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self).databaseValue
        case SQLITE_FLOAT: return sqlite3_column_double(statement, index).databaseValue
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes = sqlite3_column_blob(statement, index) else { return Data().databaseValue }
            return Data(bytes: bytes, count: count).databaseValue
        default: return .null
        }
    }
}

/// Encodes one value (an `Encodable` bind that is not one of the common types) into a
/// `DatabaseValue`.
private final class SingleValueEncoder: Encoder, SingleValueEncodingContainer {
    var value = DatabaseValue.null
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        fatalError("SQLite binds are single values, not \(Key.self) keyed containers")
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fatalError("SQLite binds are single values, not lists")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }
    func encode(_ value: Bool) throws { self.value = Int64(value ? 1 : 0).databaseValue }
    func encode(_ value: String) throws { self.value = value.databaseValue }
    func encode(_ value: Double) throws { self.value = value.databaseValue }
    func encode(_ value: Float) throws { self.value = Double(value).databaseValue }
    func encode(_ value: Int) throws { self.value = Int64(Int64(value)).databaseValue }
    func encode(_ value: Int8) throws { self.value = Int64(Int64(value)).databaseValue }
    func encode(_ value: Int16) throws { self.value = Int64(Int64(value)).databaseValue }
    func encode(_ value: Int32) throws { self.value = Int64(Int64(value)).databaseValue }
    func encode(_ value: Int64) throws { self.value = value.databaseValue }
    func encode(_ value: UInt) throws { self.value = Int64(Int64(value)).databaseValue }
    func encode(_ value: UInt8) throws { self.value = Int64(Int64(value)).databaseValue }
    func encode(_ value: UInt16) throws { self.value = Int64(Int64(value)).databaseValue }
    func encode(_ value: UInt32) throws { self.value = Int64(Int64(value)).databaseValue }
    func encode(_ value: UInt64) throws { self.value = Int64(Int64(bitPattern: value)).databaseValue }
    func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
}

extension BulkValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .int(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .bool(let flag): Int64(flag ? 1 : 0).databaseValue
        }
    }
}
