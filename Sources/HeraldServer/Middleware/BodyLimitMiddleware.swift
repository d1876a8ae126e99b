import HeraldCore
import Hummingbird

/// Refuses request bodies over the limit with 413 before anything decodes them, whether the
/// client declared the length or streamed the body.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let tooLarge = HeraldError(.payloadTooLarge, "the request body is larger than \(maxBytes) bytes", details: ["limit": String(maxBytes)])
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw tooLarge
        }
        guard [.post, .put, .patch].contains(request.method) else { return try await next(request, context) }
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
        return try await next(request, context)
    }
}
