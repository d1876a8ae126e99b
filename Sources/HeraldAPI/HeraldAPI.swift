import Foundation

/// The REST contract. `openapi.yaml` in this folder is the source of truth; the types and the
/// `APIProtocol` server stub are generated from it at build time, and the document itself is
/// compiled into the binary (`PackageResources`), so a release needs no file beside it.
public enum OpenAPISpec {
    /// The document served at `GET /openapi.yaml`.
    public static func text() throws -> String {
        String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
    }

    /// The JSON Schema of feed cards (CometChat's Card Schema), served at `GET /card-schema.json`.
    public static func cardSchema() throws -> String {
        String(decoding: PackageResources.card_schema_json, as: UTF8.self)
    }
}
