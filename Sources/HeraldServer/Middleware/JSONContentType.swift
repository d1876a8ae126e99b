import HTTPTypes
import HeraldCore
import Hummingbird

/// What counts as a JSON body, and the one refusal of any other.
enum JSONContentType {
    static func matches(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    static func refusal(_ contentType: String?) -> HeraldError {
        let said = contentType.flatMap { $0.isEmpty ? nil : "it was sent as \($0)" } ?? "it was sent without a Content-Type"
        return HeraldError(
            .unsupportedMediaType,
            "the request body must be JSON with Content-Type: application/json; \(said)",
            details: ["field": "Content-Type", "contentType": contentType ?? ""]
        )
    }
}
