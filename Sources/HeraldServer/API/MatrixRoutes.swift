import Foundation
import HTTPTypes
import HeraldCore
import HeraldModels
import Hummingbird

/// The Matrix Push Gateway API (v1), served by hand: its errors are Matrix's
/// (`{"errcode","error"}`), not Herald's, and homeservers send no credentials. `openapi.yaml`
/// still describes the operations.
enum MatrixRoutes {
    static let notifyPath = "/_matrix/push/v1/notify"
    /// `METHOD path` of each operation served here; the generated handlers for them are skipped.
    static let operations: Set<String> = ["POST \(notifyPath)", "GET \(notifyPath)"]

    static func register<Context: RequestContext>(on router: Router<Context>, services: HeraldServices) {
        router.post(RouterPath(stringLiteral: notifyPath)) { request, context -> Response in
            guard try await services.matrix.isOn() else { return Self.error(.notFound, "M_UNRECOGNIZED", "Unrecognized request") }
            var request = request
            let body = try await request.collectBody(upTo: .max)
            let json: JSONValue
            do {
                json = try body.withUnsafeReadableBytes { try JSONValue(jsonBytes: $0) }
            } catch {
                return Self.error(.badRequest, "M_NOT_JSON", "the body is not JSON")
            }
            let notification: MatrixNotification
            do {
                notification = try MatrixNotification.parse(json)
            } catch let error as HeraldError {
                return Self.error(.badRequest, "M_BAD_JSON", error.message)
            }
            do {
                let rejected = try await services.matrix.notify(notification)
                let answer = JSONValue.object(["rejected": .array(rejected.map(JSONValue.string))]).jsonBytes()
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: answer)))
            } catch {
                // The homeserver tries the notify again later.
                context.logger.error("Matrix notify failed", metadata: ["error": .error(error)])
                return Self.error(.internalServerError, "M_UNKNOWN", "the notification could not be stored; try again")
            }
        }
        router.get(RouterPath(stringLiteral: notifyPath)) { _, _ -> Response in
            guard try await services.matrix.isOn() else { return Self.error(.notFound, "M_UNRECOGNIZED", "Unrecognized request") }
            let answer = JSONValue.object(["unifiedpush": .object(["gateway": .string("matrix")])]).jsonBytes()
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: answer)))
        }
    }

    /// Whether a path is the gateway's (its errors are Matrix's).
    static func owns(_ path: String) -> Bool { path == "/_matrix" || path.hasPrefix("/_matrix/") }

    /// The Matrix error code of a status Herald's middleware answered with.
    static func errcode(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "M_BAD_JSON"
        case 404, 405: "M_UNRECOGNIZED"
        case 413: "M_TOO_LARGE"
        case 415: "M_NOT_JSON"
        case 429: "M_LIMIT_EXCEEDED"
        default: "M_UNKNOWN"
        }
    }

    /// A Matrix error: 404 `M_UNRECOGNIZED` for an unknown path, 405 `M_UNRECOGNIZED` for a wrong method.
    static func error(_ status: HTTPResponse.Status, _ errcode: String, _ message: String, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        let body = JSONValue.object(["errcode": .string(errcode), "error": .string(message)]).jsonBytes()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
