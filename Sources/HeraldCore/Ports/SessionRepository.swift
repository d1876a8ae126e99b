import Foundation

public protocol SessionRepository: Sendable {
    func createSession(_ session: Session, tokenHash: String) async throws
    /// Sessions whose token hash starts with these characters, for the caller to compare whole.
    func sessions(tokenHashPrefix: String) async throws -> [HashedCredential<Session>]
    func sessions(appId: String, uid: String) async throws -> [Session]
    /// Deletes the session and the push tokens registered through it.
    func deleteSession(appId: String, uid: String, sessionId: String) async throws -> Bool
    /// Sessions whose expiry passed before `before` (all apps).
    func expiredSessions(before: Date, limit: Int) async throws -> [Session]
}
