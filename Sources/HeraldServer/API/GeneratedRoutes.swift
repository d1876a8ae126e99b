import HTTPTypes
import HeraldCore
import HeraldModels
import Hummingbird
import OpenAPIRuntime

/// Registers the generated handlers except the ones ``HotRoutes`` serves.
struct GeneratedRoutes<Base: ServerTransport>: ServerTransport {
    let base: Base
    let skipping: Set<String>

    func register(
        _ handler: @Sendable @escaping (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        guard !skipping.contains("\(method.rawValue) \(path)") else { return }
        try base.register(handler, method: method, path: path)
    }
}
