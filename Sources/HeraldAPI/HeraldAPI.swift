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
}
