import Foundation
import HeraldCore
import HeraldModels
import Hummingbird
import Logging
import OpenAPIRuntime

/// Turns every error into `{"error":{"code","message","details"}}` with the right status.
/// Nothing escapes as a bare 500: unknown errors are logged and answered as `internal`.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The API's routes, to tell a wrong method (405 with `Allow`) from a path that does not exist.
    var routes = RouteTable()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if MatrixRoutes.owns(request.uri.path) {
                // The gateway's paths answer as a Matrix server does, whatever refused the request.
                if let routerError = error as? HTTPError, routerError.status == .notFound {
                    if let allowed = routes.methods(for: request.uri.path), !allowed.contains(request.method) {
                        let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
                        return MatrixRoutes.error(.methodNotAllowed, "M_UNRECOGNIZED", "Unrecognized request", headers: [.allow: allow])
                    }
                    return MatrixRoutes.error(.notFound, "M_UNRECOGNIZED", "Unrecognized request")
                }
                let refusal = Self.heraldError(from: error)
                return MatrixRoutes.error(Self.status(of: refusal.kind), MatrixRoutes.errcode(for: Self.status(of: refusal.kind)), refusal.message)
            }
            var herald = Self.heraldError(from: error)
            if let routerError = error as? HTTPError, routerError.status == .notFound, let allowed = routes.methods(for: request.uri.path),
                !allowed.contains(request.method)
            {
                let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
                herald = HeraldError(
                    .methodNotAllowed,
                    "\(request.method.rawValue) is not allowed on \(request.uri.path); it takes \(allow)",
                    details: ["allow": allow, "method": request.method.rawValue]
                )
            }
            if herald.kind == .internal {
                context.logger.error("request failed", metadata: ["error": .error(error), "path": "\(request.uri.path)"])
            }
            return Self.response(for: herald)
        }
    }

    static func response(for error: HeraldError) -> Response {
        let body = ErrorBody(error: .init(code: error.code, message: error.message, details: error.details))
        let data = (try? JSONEncoder().encode(body)) ?? Data(#"{"error":{"code":"internal","message":"","details":{}}}"#.utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if error.kind == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if let seconds = error.details["retryAfterSeconds"] { headers[.retryAfter] = seconds }
        if error.kind == .methodNotAllowed, let allow = error.details["allow"] { headers[.allow] = allow }
        return Response(status: status(of: error.kind), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func status(of kind: HeraldError.Kind) -> HTTPResponse.Status {
        switch kind {
        case .badRequest: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .payloadTooLarge: .contentTooLarge
        case .invalidField: .unprocessableContent
        case .upgradeRequired: .init(code: 426, reasonPhrase: "Upgrade Required")
        case .unsupportedMediaType: .unsupportedMediaType
        case .methodNotAllowed: .methodNotAllowed
        case .tooManyRequests: .tooManyRequests
        case .unavailable: .serviceUnavailable
        case .internal: .internalServerError
        }
    }

    static func heraldError(from error: any Error) -> HeraldError {
        switch error {
        case let error as HeraldError:
            return error
        case let error as ServerError:
            if let decoding = error.underlyingError as? DecodingError, [.get, .delete, .head].contains(error.request.method) {
                // Requests without a body fail to decode only in their path or query parameters.
                var mapped = decodingError(decoding)
                mapped.details["field"] = "query"
                mapped.message = "a path or query parameter has a value of the wrong type: " + mapped.message
                return mapped
            }
            if error.underlyingError is HeraldError || error.underlyingError is DecodingError {
                return heraldError(from: error.underlyingError)
            }
            if let convertible = error.underlyingError as? any HTTPResponseConvertible {
                if convertible.httpStatus == .unsupportedMediaType { return JSONContentType.refusal(error.request.headerFields[.contentType]) }
                return HeraldError(kind(for: convertible.httpStatus), error.causeDescription)
            }
            return heraldError(from: error.underlyingError)
        case let error as DecodingError:
            return decodingError(error)
        case let error as HTTPError:
            switch error.status {
            case .notFound: return HeraldError(.notFound, error.body ?? "no such route")
            case .contentTooLarge: return HeraldError(.payloadTooLarge, "the request body is too large")
            case .methodNotAllowed: return HeraldError(.methodNotAllowed, "this method is not allowed on this route")
            default:
                return HeraldError(
                    kind(for: error.status),
                    code: kind(for: error.status) == .badRequest ? "bad_request" : nil,
                    error.body ?? error.status.reasonPhrase
                )
            }
        case let error as any HTTPResponseConvertible:
            return HeraldError(kind(for: error.httpStatus), String(describing: error))
        default:
            return HeraldError(.internal, "an internal error occurred")
        }
    }

    static func kind(for status: HTTPResponse.Status) -> HeraldError.Kind {
        switch status.code {
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 405: .methodNotAllowed
        case 409: .conflict
        case 413: .payloadTooLarge
        case 415: .unsupportedMediaType
        case 422: .invalidField
        case 503: .unavailable
        case 400..<500: .badRequest
        default: .internal
        }
    }

    /// Unparseable JSON is 400; JSON that parses but has a missing or mistyped field is 422,
    /// naming the field.
    static func decodingError(_ error: DecodingError) -> HeraldError {
        func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)? = nil) -> String {
            let keys = codingPath + (key.map { [$0] } ?? [])
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
            return text.isEmpty ? "body" : text
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return HeraldError(.badRequest, code: "malformed_json", "the request body is not valid JSON")
        case .dataCorrupted(let context) where context.debugDescription.hasPrefix("Additional properties are disabled"):
            // A closed object with a key it does not know: a typo, or a field of another request.
            return .invalidField(path(context.codingPath), "is not a field of this request")
        case .dataCorrupted(let context):
            return .invalidField(path(context.codingPath), "has a value that is not allowed")
        case .keyNotFound(let key, let context) where context.debugDescription.contains("discriminator value"):
            // A oneOf's discriminator (a provider's kind) with a value it does not list.
            let given = context.debugDescription.split(separator: "'").dropFirst().first.map(String.init) ?? ""
            let field = path(context.codingPath, key)
            let allowed = OpenAPIFacts.discriminatorValues[key.stringValue].map { "; use one of " + $0.joined(separator: ", ") } ?? ""
            return .invalidField(field, "'\(given)' is not one of the values this field takes\(allowed)")
        case .keyNotFound(let key, let context):
            return .invalidField(path(context.codingPath, key), "is required")
        case .typeMismatch(let type, let context):
            return .invalidField(path(context.codingPath), "must be of type \(describe(type))")
        case .valueNotFound(let type, let context):
            return .invalidField(path(context.codingPath), "must be a \(describe(type)), not null")
        @unknown default:
            return HeraldError(.badRequest, "the request body could not be read")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Bool.Type: "boolean"
        case is Int.Type, is Int64.Type, is Int32.Type: "integer"
        case is Double.Type, is Float.Type: "number"
        default: String(describing: type).contains("Array") ? "array" : "object"
        }
    }
}
