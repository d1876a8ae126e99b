import Foundation
import HeraldAPI
import HeraldCore
import HeraldModels
import OpenAPIRuntime

/// Between the generator's free-form objects and Herald's JSON values, through their JSON form.
enum JSONBridge {
    static func object<T: Encodable>(_ value: T) throws -> JSONObject {
        guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value)) else {
            throw HeraldError.invalidField("metadata", "must be a JSON object")
        }
        return object
    }

    static func decode<T: Decodable>(_ object: JSONObject) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(JSONValue.object(object)))
    }

    static func text<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
