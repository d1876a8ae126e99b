/// The one error type use cases throw. The server turns `kind` into an HTTP status and the
/// whole value into `{"error":{"code","message","details"}}`; nothing else needs a switch.
public struct HeraldError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case badRequest = "bad_request"
        case unauthorized
        case forbidden
        case notFound = "not_found"
        case conflict
        case payloadTooLarge = "payload_too_large"
        case invalidField = "invalid_field"
        case upgradeRequired = "upgrade_required"
        /// The body is not JSON (or says nothing of its type): 415.
        case unsupportedMediaType = "unsupported_media_type"
        /// The route exists, but not for this method: 405, with `details.allow`.
        case methodNotAllowed = "method_not_allowed"
        case tooManyRequests = "too_many_requests"
        case unavailable
        case `internal`
    }

    public var kind: Kind
    /// A stable machine-readable code; defaults to the kind's name.
    public var code: String
    public var message: String
    public var details: [String: String]

    public init(_ kind: Kind, code: String? = nil, _ message: String, details: [String: String] = [:]) {
        self.kind = kind
        self.code = code ?? kind.rawValue
        self.message = message
        self.details = details
    }

    public var description: String { "\(code): \(message)" }

    /// A field of the request is missing or has a value that is not allowed.
    public static func invalidField(_ field: String, _ message: String) -> HeraldError {
        HeraldError(.invalidField, "\(field): \(message)", details: ["field": field])
    }

    public static func notFound(_ resource: String, _ id: String) -> HeraldError {
        HeraldError(.notFound, "\(resource) '\(id)' was not found", details: ["resource": resource, "id": id])
    }

    public static func unauthorized(_ message: String) -> HeraldError {
        HeraldError(.unauthorized, message)
    }
}
