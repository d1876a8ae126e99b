import Foundation
import HeraldCore
import SQLKit

extension SQLStore: SessionRepository {
    public func createSession(_ session: Session, tokenHash: String) async throws {
        try await write { db in
            try await db.raw(
                """
                INSERT INTO sessions (id, app_id, uid, token_hash, device_name, created_at, expires_at)
                VALUES (\(bind: session.id), \(bind: session.appId), \(bind: session.uid), \(bind: tokenHash),
                        \(bind: session.deviceName), \(bind: session.createdAt.ms), \(bind: session.expiresAt?.ms))
                """
            ).perform()
        }
        // A new token's hash prefix was not a session before: only this process can have looked it up.
        cache.sessions.forget([Self.prefix(tokenHash)])
    }

    public func sessions(tokenHashPrefix: String) async throws -> [HashedCredential<Session>] {
        try await cached(cache.sessions, [tokenHashPrefix]) { _ in
            [
                tokenHashPrefix: try await lookup { db in
                    try await db.raw("SELECT * FROM sessions WHERE substr(token_hash, 1, 16) = \(bind: tokenHashPrefix)")
                        .rows().map { HashedCredential(hash: try $0.string("token_hash"), owner: try Self.session($0)) }
                }
            ]
        }[tokenHashPrefix] ?? []
    }

    public func sessions(appId: String, uid: String) async throws -> [Session] {
        try await lookup { db in
            try await db.raw("SELECT * FROM sessions WHERE app_id = \(bind: appId) AND uid = \(bind: uid) ORDER BY created_at, id")
                .rows().map(Self.session)
        }
    }

    public func deleteSession(appId: String, uid: String, sessionId: String) async throws -> Bool {
        let deleted = try await transaction { db in
            let deleted =
                try await db.raw(
                    """
                    DELETE FROM sessions WHERE app_id = \(bind: appId) AND uid = \(bind: uid) AND id = \(bind: sessionId) RETURNING id
                    """
                ).firstRow() != nil
            if deleted {
                try await db.raw("DELETE FROM push_tokens WHERE app_id = \(bind: appId) AND session_id = \(bind: sessionId)").perform()
            }
            return deleted
        }
        if deleted { await changed(.credentials, .users(appId: appId, uids: [uid])) }
        return deleted
    }

    public func expiredSessions(before date: Date, limit: Int) async throws -> [Session] {
        try await lookup { db in
            try await db.raw(
                """
                SELECT * FROM sessions WHERE expires_at IS NOT NULL AND expires_at < \(bind: date.ms) ORDER BY expires_at LIMIT \(bind: limit)
                """
            ).rows().map(Self.session)
        }
    }

    static func session(_ row: any SQLRow) throws -> Session {
        Session(
            id: try row.string("id"),
            appId: try row.string("app_id"),
            uid: try row.string("uid"),
            deviceName: try row.optionalString("device_name"),
            createdAt: try row.date("created_at"),
            expiresAt: try row.optionalDate("expires_at")
        )
    }
}
