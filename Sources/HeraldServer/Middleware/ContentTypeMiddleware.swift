import HTTPTypes
import HeraldCore
import Hummingbird

/// Every API body is JSON: a `POST`, `PUT` or `PATCH` under `/v1/` whose body is not sent as
/// `Content-Type: application/json` (or another `+json` type) is a `415` with one error code,
/// `unsupported_media_type`, whichever route it was for. (`curl -d` without `-H` sends
/// `application/x-www-form-urlencoded`, the most common way to meet this.)
struct ContentTypeMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard [.post, .put, .patch].contains(request.method), request.uri.path.hasPrefix("/v1/") else { return try await next(request, context) }
        let type = request.headers[.contentType].flatMap { $0.isEmpty ? nil : $0 }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > 0 {
            guard JSONContentType.matches(type) else { throw JSONContentType.refusal(type) }
        } else if request.headers[.transferEncoding] != nil {
            // A streamed body of unknown length may be empty: a type that is not JSON is refused
            // now; without a type, the route decides (one that needs a body refuses it with 415).
            if let type, !JSONContentType.matches(type) { throw JSONContentType.refusal(type) }
        } else if type != nil {
            // No body: its type says nothing (clients that send the same headers on every call
            // send `Content-Type: application/json` with an empty POST), so a route whose body
            // is optional takes it as absent.
            var head = request.head
            head.headerFields[.contentType] = nil
            return try await next(Request(head: head, body: request.body), context)
        }
        return try await next(request, context)
    }
}
