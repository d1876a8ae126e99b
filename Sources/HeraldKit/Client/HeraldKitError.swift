import Foundation

/// What can go wrong in HeraldKit, typed: the server's structured errors, the SDK's own state,
/// transport failures and payloads it cannot read.
public enum HeraldKitError: Error, Sendable, Equatable {
    /// The server answered with an error body (`{"error":{"code","message","details"}}`).
    case server(status: Int, code: String, message: String, details: [String: String])
    /// The call needs a logged-in user; call ``Herald/login(authToken:)`` first.
    case notLoggedIn
    /// The request did not reach the server, or its answer could not be read.
    case transport(String)
    /// A push payload (or server answer) is not one HeraldKit understands.
    case invalidPayload(String)
    /// The push is not a chat message (a campaign push, a silent session notice…); `kind` says what it is.
    case notAMessage(kind: String)

    /// The error code for server errors (`invalid_field`, `not_found`…).
    public var code: String? {
        if case .server(_, let code, _, _) = self { return code }
        return nil
    }
}
