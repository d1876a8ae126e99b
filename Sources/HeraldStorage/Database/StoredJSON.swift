import Foundation
import HeraldCore
import HeraldModels
import Logging
import SQLKit

enum StoredJSON {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func value<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decoder.decode(type, from: Data(text.utf8))
    }

    /// A list of strings as JSON text (tags), by the fast writer.
    static func text(strings: [String]) -> String {
        String(decoding: JSONValue.array(strings.map(JSONValue.string)).jsonBytes(), as: UTF8.self)
    }

    /// A list of strings from JSON text, by the fast reader.
    static func strings(from text: String) throws -> [String] {
        guard case .array(let items) = try JSONValue(jsonText: text) else { throw HeraldError(.internal, "a stored list is not a JSON array") }
        return items.compactMap { if case .string(let value) = $0 { value } else { nil } }
    }
}
