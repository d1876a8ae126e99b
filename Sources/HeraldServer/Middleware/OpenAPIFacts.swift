import HTTPTypes
import HeraldAPI

/// Facts read once from the served OpenAPI document for error messages.
enum OpenAPIFacts {
    /// The values of each oneOf discriminator (`kind` → `fcm, apns, custom, hms`), in the order
    /// the document lists them.
    static let discriminatorValues: [String: [String]] = {
        guard let text = try? OpenAPISpec.text() else { return [:] }
        var values: [String: [String]] = [:]
        var property: String?
        var inMapping = false
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("propertyName:") {
                property = trimmed.dropFirst("propertyName:".count).trimmingCharacters(in: .whitespaces)
                inMapping = false
            } else if trimmed == "mapping:", property != nil {
                inMapping = true
            } else if inMapping, let property, trimmed.contains(": '#/"), let key = trimmed.split(separator: ":").first {
                values[property, default: []].append(String(key))
            } else {
                inMapping = false
                property = nil
            }
        }
        return values
    }()
}
