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

    /// SQLite copies the bound text or blob before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds a bulk row's value to parameter `index` (1-based); SQLite's result code.
    static func bind(_ value: BulkValue, at index: CInt, to statement: SQLiteStatement) -> CInt {
        switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .int(let number): sqlite3_bind_int64(statement, index, number)
        case .bool(let flag): sqlite3_bind_int64(statement, index, flag ? 1 : 0)
        case .text(let text): bind(text, at: index, to: statement)
        }
    }

    /// Binds an SQLKit bind: the common types directly, anything else as its `DatabaseValue`.
    static func bind(_ value: any Encodable, at index: CInt, to statement: SQLiteStatement) throws -> CInt {
        switch value {
        case let text as String: return bind(text, at: index, to: statement)
        case let number as Int: return sqlite3_bind_int64(statement, index, Int64(number))
        case let number as Int64: return sqlite3_bind_int64(statement, index, number)
        case let flag as Bool: return sqlite3_bind_int64(statement, index, flag ? 1 : 0)
        case let number as Double: return sqlite3_bind_double(statement, index, number)
        default: return bind(try databaseValue(value), at: index, to: statement)
        }
    }

    static func bind(_ value: DatabaseValue, at index: CInt, to statement: SQLiteStatement) -> CInt {
        switch value.storage {
        case .null: sqlite3_bind_null(statement, index)
        case .int64(let number): sqlite3_bind_int64(statement, index, number)
        case .double(let number): sqlite3_bind_double(statement, index, number)
        case .string(let text): bind(text, at: index, to: statement)
        case .blob(let data):
            data.withUnsafeBytes { bytes in sqlite3_bind_blob(statement, index, bytes.baseAddress, CInt(bytes.count), transient) }
        }
    }

    static func bind(_ text: String, at index: CInt, to statement: SQLiteStatement) -> CInt {
        let bind = { (bytes: UnsafeBufferPointer<UInt8>) in
            guard let base = bytes.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, nil) }
            return sqlite3_bind_text(statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), CInt(bytes.count), transient)
        }
        // A native string's bytes are read where they are; `withUTF8` would need a copy to mutate.
        if let code = text.utf8.withContiguousStorageIfAvailable(bind) { return code }
        var text = text
        return text.withUTF8(bind)
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
