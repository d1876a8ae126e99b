import Foundation

/// A newly opened session with its bearer token: the only moment the token exists in clear.
public struct IssuedSession: Sendable {
    public var session: Session
    public var authToken: String
}
