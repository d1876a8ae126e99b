import Foundation
import HeraldModels

/// Reading a JSON answer in a test as a path: `response.body["data"]["to"]["uid"].string`.
/// A missing key, an index out of range or a step into a value that is not an object or array
/// reads as `.null`, so a chain never fails half-way; the typed accessors at its end give `nil`
/// for `.null` and for a value of another kind.
extension JSONValue {
    /// The member `key` of an object; `.null` when absent or when this is not an object.
    public subscript(key: String) -> JSONValue {
        guard case .object(let object) = self else { return .null }
        return object[key] ?? .null
    }

    /// The element at `index` of an array; `.null` when out of range or when this is not an array.
    public subscript(index: Int) -> JSONValue {
        guard case .array(let items) = self, items.indices.contains(index) else { return .null }
        return items[index]
    }

    /// The text, when this is a string.
    public var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The number, when this is a number with no fraction.
    public var int: Int? {
        guard case .number(let number) = self, number.rounded() == number, abs(number) < 1e15 else { return nil }
        return Int(number)
    }

    /// The number, when this is one.
    public var double: Double? {
        guard case .number(let number) = self else { return nil }
        return number
    }

    /// The flag, when this is a boolean.
    public var bool: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    /// The elements, when this is an array.
    public var array: [JSONValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }

    /// The members, when this is an object.
    public var object: JSONObject? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// An array whose elements are all strings, as such (nil when any is not a string).
    public var strings: [String]? {
        guard let items = array else { return nil }
        let texts = items.compactMap(\.string)
        return texts.count == items.count ? texts : nil
    }

    /// An object whose members are all strings, as such (nil when any is not a string).
    public var stringObject: [String: String]? {
        guard let members = object else { return nil }
        var strings: [String: String] = [:]
        for (key, value) in members {
            guard let text = value.string else { return nil }
            strings[key] = text
        }
        return strings
    }

    /// The JSON text parsed, or `.null` when it is not JSON (a request body a stand-in records).
    public static func parsing<Bytes: Collection>(_ bytes: Bytes) -> JSONValue where Bytes.Element == UInt8 {
        (try? JSONValue(jsonBytes: bytes)) ?? .null
    }
}
