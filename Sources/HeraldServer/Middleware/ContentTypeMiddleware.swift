import HeraldCore
import HTTPTypes
import Hummingbird

/// Every API body is JSON: a `POST`, `PUT` or `PATCH` under `/v1/` that carries a body without
/// `Content-Type: application/json` (or another `+json` type) is a `415` with one error code,
/// `unsupported_media_type`, whichever route it was for. (`curl -d` without `-H` sends
/// `application/x-www-form-urlencoded`, the most common way to meet this.)
struct ContentTypeMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard [.post, .put, .patch].contains(request.method), request.uri.path.hasPrefix("/v1/") else { return try await next(request, context) }
        guard Self.hasBody(request.headers) else {
            // No body: its type says nothing (clients that send the same headers on every call
            // send `Content-Type: application/json` with an empty POST), so a route whose body
            // is optional takes it as absent.
            guard request.headers[.contentType] != nil else { return try await next(request, context) }
            var head = request.head
            head.headerFields[.contentType] = nil
            return try await next(Request(head: head, body: request.body), context)
        }
        guard Self.isJSON(request.headers[.contentType]) else { throw Self.refusal(request.headers[.contentType]) }
        return try await next(request, context)
    }

    static func hasBody(_ headers: HTTPFields) -> Bool {
        if let length = headers[.contentLength].flatMap(Int.init) { return length > 0 }
        return headers[.transferEncoding] != nil
    }

    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    static func refusal(_ contentType: String?) -> HeraldError {
        let said = contentType.flatMap { $0.isEmpty ? nil : "it was sent as \($0)" } ?? "it was sent without a Content-Type"
        return HeraldError(.unsupportedMediaType, "the request body must be JSON with Content-Type: application/json; \(said)",
                           details: ["field": "Content-Type", "contentType": contentType ?? ""])
    }
}
