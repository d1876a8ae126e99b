import HTTPTypes
import Hummingbird

struct CredentialsMiddleware<Context: RequestContext>: RouterMiddleware {
    static var appHeaderName: HTTPField.Name { HTTPField.Name("X-Herald-App")! }

    /// The credential of `Authorization: Bearer <credential>`, if the request has one.
    static func bearer(in request: Request) -> String? {
        guard let authorization = request.headers[.authorization] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let bearer = Self.bearer(in: request)
        let appHeader = request.headers[Self.appHeaderName]
        return try await RequestCredentials.$bearer.withValue(bearer) {
            try await RequestCredentials.$appHeader.withValue(appHeader) {
                try await next(request, context)
            }
        }
    }
}
