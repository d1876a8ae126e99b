import HTTPTypes
import HeraldCore
import HeraldModels
import Hummingbird
import OpenAPIRuntime

/// Operations served by hand instead of through the generated types, because decoding into those
/// types costs more than the operation itself. `POST /v1/events` is the engine's front door (tens
/// of thousands of events a second): its body goes straight from bytes to a `JSONValue`, and the
/// event parser checks every field, naming its path. `GET /v1/me/feed` (``registerFeed(on:services:)``)
/// is what every app asks on launch, and `POST /v1/me/push-tokens` (``PushTokenRequest``) what
/// every device says after a login. `openapi.yaml` still describes these operations; their
/// contract tests run against these handlers.
enum HotRoutes {
    /// `METHOD path` of each operation served here; the generated handlers for them are skipped.
    static let operations: Set<String> = ["POST /v1/events", "GET /v1/me/feed", "POST /v1/me/push-tokens"]

    static func register<Context: RequestContext>(on router: Router<Context>, services: HeraldServices) {
        router.post("/v1/events") { request, _ -> Response in
            let appId = try await services.authenticator.admin(bearer: RequestCredentials.bearer, expectedAppId: RequestCredentials.appHeader)
            let (json, bytes) = try await jsonBody(request)
            let ids = try await services.acceptEvents(appId: appId, body: json, bytes: bytes)
            let answer = JSONValue.object(["eventIds": .array(ids.map(JSONValue.string))]).jsonBytes()
            return Response(
                status: .accepted,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: answer))
            )
        }
        registerFeed(on: router, services: services)
        router.post("/v1/me/push-tokens") { request, _ -> Response in
            let session = try await services.authenticator.user(bearer: RequestCredentials.bearer)
            let (json, _) = try await jsonBody(request)
            let registration = try await PushTokenRequest(json: json).register(session: session, tokens: services.tokens)
            return Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: PushTokenRequest.answer(registration)))
            )
        }
    }

    /// A request's JSON body, parsed, and its size: `415` for another media type, `400` for text
    /// that is not JSON.
    static func jsonBody(_ request: Request) async throws -> (JSONValue, bytes: Int) {
        guard JSONContentType.matches(request.headers[.contentType]) else { throw JSONContentType.refusal(request.headers[.contentType]) }
        var request = request
        let body = try await request.collectBody(upTo: .max)
        do {
            return (try body.withUnsafeReadableBytes { try JSONValue(jsonBytes: $0) }, body.readableBytes)
        } catch {
            throw HeraldError(.badRequest, code: "malformed_json", "the request body is not valid JSON", details: ["reason": "\(error)"])
        }
    }
}
