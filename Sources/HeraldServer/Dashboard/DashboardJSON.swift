import Foundation
import HeraldCore
import HeraldModels

/// JSON typed into a form, with syntax errors told by line and column.
enum DashboardJSON {
    static func parse(_ text: String, field: String) throws -> JSONValue {
        do {
            return try JSONValue.parse(text)
        } catch let error as JSONValue.SyntaxError {
            let prefix = Array(text.utf8.prefix(error.offset))
            let line = prefix.filter { $0 == 10 }.count + 1
            let column = prefix.count - (prefix.lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1
            throw HeraldError.invalidField(field, "is not valid JSON: \(error.reason) (line \(line), column \(column))")
        }
    }

    /// Indented JSON for an editor.
    static func pretty(_ value: JSONValue) -> String {
        let bytes = value.jsonBytes(sortedKeys: false)
        guard
            let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.prettyPrinted, .withoutEscapingSlashes, .fragmentsAllowed]
            )
        else {
            return (try? value.jsonText()) ?? ""
        }
        return String(decoding: data, as: UTF8.self)
    }
}
