import Foundation
import HeraldCore
import Hummingbird
import NIOConcurrencyHelpers

/// Each credential's requests are metered (``RateLimiter``); a credential over its budget is
/// answered `429` with `Retry-After`.
struct RateLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limiter: RateLimiter

    /// The operations that take no credential (`security: []` in the OpenAPI document: the
    /// probes, the Matrix gateway a homeserver calls): a request that sends one anyway is neither
    /// counted against it nor refused.
    static var unmetered: Set<String> { ["/health", "/ready", MatrixRoutes.notifyPath] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if !Self.unmetered.contains(request.uri.path), let bearer = CredentialsMiddleware<Context>.bearer(in: request),
            let wait = limiter.admit(bearer: bearer)
        {
            let seconds = max(1, Int(wait.rounded(.up)))
            throw HeraldError(
                .tooManyRequests,
                "too many requests with this credential; retry after \(seconds) s",
                details: ["retryAfterSeconds": String(seconds)]
            )
        }
        return try await next(request, context)
    }
}
