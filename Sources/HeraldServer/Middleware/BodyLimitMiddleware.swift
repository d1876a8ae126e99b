import HeraldCore
import Hummingbird

/// Refuses request bodies over the limit with 413 before anything decodes them, whether the
/// client declared the length or streamed the body. A POST, PUT or PATCH sent with no body at all
/// reads as `{}`: routes whose body is optional work without one, and the others name the field
/// that is missing.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let tooLarge = HeraldError(.payloadTooLarge, "the request body is larger than \(maxBytes) bytes", details: ["limit": String(maxBytes)])
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw tooLarge
        }
        guard [.post, .put, .patch].contains(request.method) else { return try await next(request, context) }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
        if body.readableBytes == 0, request.headers[.contentType] == nil {
            var head = request.head
            head.headerFields[.contentType] = "application/json"
            request = Request(head: head, body: .init(buffer: ByteBuffer(string: "{}")))
        }
        return try await next(request, context)
    }
}
