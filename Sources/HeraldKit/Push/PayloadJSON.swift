import Foundation
import HeraldModels

/// `[String: Any]` (a push's `userInfo`, an FCM data map) as JSON.
enum PayloadJSON {
    static func object(_ payload: [String: Any]) -> JSONObject {
        payload.mapValues(value)
    }

    static func value(_ any: Any) -> JSONValue {
        switch any {
        case let text as String: return .string(text)
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .number(Double(number))
        case let number as Double: return .number(number)
        case let array as [Any]: return .array(array.map(value))
        case let object as [String: Any]: return .object(object.mapValues(value))
        case let object as [AnyHashable: Any]:
            var result: JSONObject = [:]
            for (key, item) in object { if let key = key.base as? String { result[key] = value(item) } }
            return .object(result)
        default: return .null
        }
    }
}
