import Foundation

/// Any JSON value: free-form metadata on users and groups, card data, custom payload data.
public enum JSONValue: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// A JSON object, as metadata is.
public typealias JSONObject = [String: JSONValue]

extension JSONValue {
    /// The compact, key-sorted JSON text of this value.
    public func jsonText() throws -> String {
        String(decoding: jsonBytes(sortedKeys: true), as: UTF8.self)
    }

    /// Parses JSON text into a value.
    public static func parse(_ text: String) throws -> JSONValue {
        try JSONValue(jsonText: text)
    }
}

extension JSONValue {
    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The object, when this is one.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The value as `JSONSerialization` would give it (for template contexts).
    public var foundationValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .number(let number): return number.rounded() == number && abs(number) < 1e15 ? Int(number) as Any : number
        case .string(let text): return text
        case .array(let items): return items.map(\.foundationValue)
        case .object(let object): return object.mapValues(\.foundationValue)
        }
    }
}
