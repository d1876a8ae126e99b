import Foundation

/// Resolves bearer credentials. Unknown, revoked or expired credentials are `401`; a valid
/// credential of the wrong sort for the route is `403`.
public struct Authenticator: Sendable {
    let apps: any AppRepository
    let sessions: any SessionRepository
    let hasher: any SecretHasher
    let clock: any WallClock

    public init(apps: any AppRepository, sessions: any SessionRepository, hasher: any SecretHasher, clock: any WallClock = SystemWallClock()) {
        self.apps = apps
        self.sessions = sessions
        self.hasher = hasher
        self.clock = clock
    }

    public func principal(bearer: String?) async throws -> Principal {
        guard let bearer, !bearer.isEmpty else {
            throw HeraldError.unauthorized("Authorization: Bearer <apiKey or authToken> is required")
        }
        // The database sees only the first characters of the presented secret's hash; the whole
        // hash is compared here, in constant time, so response times say nothing about how much
        // of a stored key a guess matched.
        let hash = hasher.hash(bearer)
        let prefix = String(hash.prefix(HashedCredential<String>.lookupPrefixLength))
        if bearer.hasPrefix(AppManagement.apiKeyPrefix) {
            guard let key = Self.match(hash, in: try await apps.apiKeys(hashPrefix: prefix)) else {
                throw HeraldError.unauthorized("the API key is not valid")
            }
            return .admin(appId: key.owner)
        }
        if bearer.hasPrefix(SessionManagement.authTokenPrefix),
            let session = Self.match(hash, in: try await sessions.sessions(tokenHashPrefix: prefix))?.owner,
            !session.isExpired(at: clock.now())
        {
            return .user(session)
        }
        throw HeraldError.unauthorized("the auth token is not valid or has expired")
    }

    /// The candidate whose whole hash equals `hash`; every candidate is compared, in constant time.
    static func match<Owner>(_ hash: String, in candidates: [HashedCredential<Owner>]) -> HashedCredential<Owner>? {
        var found: HashedCredential<Owner>?
        for candidate in candidates where ConstantTime.equals(candidate.hash, hash) {
            found = candidate
        }
        return found
    }

    /// The app of an admin caller. `expectedAppId` is the optional `X-Herald-App` header: a key
    /// of another app is refused with `403`.
    public func admin(bearer: String?, expectedAppId: String? = nil) async throws -> String {
        let principal = try await principal(bearer: bearer)
        guard case .admin(let appId) = principal else {
            throw HeraldError(.forbidden, "this route needs an app API key, not a user auth token")
        }
        if let expectedAppId, expectedAppId != appId {
            throw HeraldError(.forbidden, "the API key does not belong to app '\(expectedAppId)'")
        }
        return appId
    }

    public func user(bearer: String?) async throws -> Session {
        let principal = try await principal(bearer: bearer)
        guard case .user(let session) = principal else {
            throw HeraldError(.forbidden, "this route needs a user auth token, not an app API key")
        }
        return session
    }
}
