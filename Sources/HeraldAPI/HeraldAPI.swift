import Foundation

/// The REST contract. `openapi.yaml` in this folder is the source of truth; the types and the
/// `APIProtocol` server stub are generated from it at build time.
public enum OpenAPISpec {
    /// The document served at `GET /openapi.yaml`.
    public static func text() throws -> String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The JSON Schema of feed cards (seed 004's Card Schema), served at `GET /card-schema.json`.
    public static func cardSchema() throws -> String {
        guard let url = Bundle.module.url(forResource: "card-schema", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
