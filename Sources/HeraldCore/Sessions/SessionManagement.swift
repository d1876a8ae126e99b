import Foundation

/// Logins (one session per device) and logouts.
public struct SessionManagement: Sendable {
    let users: any UserRepository
    let sessions: any SessionRepository
    let hasher: any SecretHasher
    let clock: any WallClock

    public static let authTokenPrefix = "hs_"

    public init(users: any UserRepository, sessions: any SessionRepository, hasher: any SecretHasher, clock: any WallClock = SystemWallClock()) {
        self.users = users
        self.sessions = sessions
        self.hasher = hasher
        self.clock = clock
    }

    public func open(appId: String, uid: String, deviceName: String?, expiresAt: Date?) async throws -> IssuedSession {
        try Validate.text(deviceName, field: "deviceName", maxLength: 200)
        let now = clock.now()
        if let expiresAt, expiresAt <= now {
            throw HeraldError.invalidField("expiresAt", "must be in the future")
        }
        guard try await users.user(appId: appId, uid: uid) != nil else { throw HeraldError.notFound("user", uid) }
        let session = Session(
            id: "ses_" + Identifier.hex(bytes: 10),
            appId: appId,
            uid: uid,
            deviceName: deviceName,
            createdAt: now,
            expiresAt: expiresAt
        )
        let token = Self.authTokenPrefix + Identifier.random(43)
        try await sessions.createSession(session, tokenHash: hasher.hash(token))
        return IssuedSession(session: session, authToken: token)
    }

    public func list(appId: String, uid: String) async throws -> [Session] {
        guard try await users.user(appId: appId, uid: uid) != nil else { throw HeraldError.notFound("user", uid) }
        let now = clock.now()
        return try await sessions.sessions(appId: appId, uid: uid).filter { !$0.isExpired(at: now) }
    }

    /// Revokes the session and removes the push tokens registered through it (CometChat's logout).
    public func close(appId: String, uid: String, sessionId: String) async throws {
        guard try await sessions.deleteSession(appId: appId, uid: uid, sessionId: sessionId) else {
            throw HeraldError.notFound("session", sessionId)
        }
    }
}
