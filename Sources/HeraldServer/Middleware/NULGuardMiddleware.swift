import HeraldCore
import Hummingbird

/// Refuses a path or query parameter holding the NUL character (`%00`) with `invalid_field`
/// naming it, before any route sees it: PostgreSQL cannot store or compare NUL in text (the
/// query fails), SQLite would cut the value short, and no identifier or filter needs it. Found by
/// API fuzzing (`?uid=%00` was a 500 on PostgreSQL). Bodies are checked by their own validation.
struct NULGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let target = request.uri.description
        guard target.range(of: "%00", options: .caseInsensitive) != nil || target.contains("\u{0}") else {
            return try await next(request, context)
        }
        for (name, value) in request.uri.queryParameters where value.contains("\u{0}") || name.contains("\u{0}") {
            throw HeraldError.invalidField(String(name).replacingOccurrences(of: "\u{0}", with: "\\0"), "must not contain the NUL character")
        }
        throw HeraldError.invalidField("path", "must not contain the NUL character")
    }
}
