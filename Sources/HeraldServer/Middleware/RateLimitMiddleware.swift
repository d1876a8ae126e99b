import Foundation
import HeraldCore
import Hummingbird
import NIOConcurrencyHelpers

struct RateLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let bearer = CredentialsMiddleware<Context>.bearer(in: request), let wait = limiter.admit(bearer: bearer) {
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
