import Foundation
import HeraldCore
import HeraldModels
import SQLKit

extension SQLStore: PushTokenRepository {
    /// Stores a token for its user: moved from another user when it was theirs, the user's other
    /// tokens of its kind removed when tokens must be unique, and the least recently seen beyond
    /// `maxPerUser` removed.
    public func register(_ token: PushToken, unique: Bool, maxPerUser: Int) async throws -> TokenRegistration {
        if dialect == .postgres {
            let request = TokenRequest(
                token: token,
                unique: unique,
                maxPerUser: maxPerUser,
                notice: cacheBus?.unconfirmedNotice(.addedToken(appId: token.appId, uid: token.uid))
            )
            let (registration, told) = try await registrations.submit(request) { batch in await self.registerInOneTrip(batch) }
            if told {
                cache.apply(.addedToken(appId: token.appId, uid: token.uid))
            } else {
                await changedCaches(by: registration)
            }
            return registration
        }
        let registration = try await registerInTransaction(token, unique: unique, maxPerUser: maxPerUser)
        await changedCaches(by: registration)
        return registration
    }

    /// A token removed or moved from another user must never be pushed to again; one added may
    /// reach the other processes a moment later.
    private func changedCaches(by registration: TokenRegistration) async {
        let token = registration.token
        if registration.removedTokens.isEmpty, registration.movedFromUid == nil {
            await changed(.addedToken(appId: token.appId, uid: token.uid))
        } else {
            await changed(.users(appId: token.appId, uids: [token.uid] + (registration.movedFromUid.map { [$0] } ?? [])))
        }
    }

    /// PostgreSQL: the same statements as ``registerInTransaction(_:unique:maxPerUser:)``, run by
    /// the server-side function of migration 12 — one round trip instead of seven — for every
    /// registration of the batch, in order, in one statement and one commit. A token only added
    /// (nothing removed, taken from nobody) is told to the other processes by the same statement
    /// (`told`); any other change is published by the caller, which waits for them. When the
    /// batch fails as a whole (a deadlock with another process's batch, a lost connection), each
    /// registration is stored again on its own and answered with its own outcome.
    private func registerInOneTrip(_ batch: [TokenRequest]) async -> [Result<(TokenRegistration, told: Bool), any Error>] {
        if batch.count > 1 {
            do {
                return try await registerTogether(batch)
            } catch {
                logger.warning(
                    "a batch of token registrations failed as a whole; each is stored on its own",
                    metadata: ["count": "\(batch.count)", "error": "\(String(reflecting: error))"]
                )
            }
        }
        var outcomes: [Result<(TokenRegistration, told: Bool), any Error>] = []
        for request in batch {
            do {
                outcomes += try await registerTogether([request])
            } catch {
                outcomes.append(.failure(error))
            }
        }
        return outcomes
    }

    /// One statement for the batch: throws only when the statement failed (nothing stored); a
    /// registration for a user that does not exist is that registration's failure.
    private func registerTogether(_ batch: [TokenRequest]) async throws -> [Result<(TokenRegistration, told: Bool), any Error>] {
        let rows = batch.map { request in
            let token = request.token
            return [
                BulkValue(token.appId), BulkValue(token.token), BulkValue(token.uid), BulkValue(token.sessionId), BulkValue(token.providerId),
                BulkValue(token.platform.rawValue), BulkValue(token.kind.rawValue), BulkValue(token.createdAt.ms), BulkValue(token.lastSeenAt.ms),
                BulkValue(request.unique), BulkValue(request.maxPerUser), BulkValue(token.encryption?.storedText),
                BulkValue(request.notice),
            ]
        }
        let (arrays, binds) = PostgresBulkArray.arrays(Self.registrationColumns, rows)
        let values = (Self.registrationColumns.map(\.name) + ["ord"]).joined(separator: ", ")
        let found = try await write { db in
            try await db.rows(
                RawStatement(
                    """
                    SELECT v.ord, r.user_found, r.previous_uid, r.stored_created_at, r.removed,
                        CASE WHEN v.notice IS NOT NULL AND r.user_found AND cardinality(r.removed) = 0
                                  AND (r.previous_uid IS NULL OR r.previous_uid = v.uid)
                             THEN (SELECT true FROM pg_notify($\(binds.count + 1), v.notice))
                             ELSE false END AS told
                    FROM unnest(\(arrays)) WITH ORDINALITY AS v(\(values))
                    CROSS JOIN LATERAL herald_register_token(
                        v.app_id, v.token, v.uid, v.session_id, v.provider_id, v.platform, v.kind, v.created_at, v.last_seen_at,
                        v.is_unique, v.max_per_user, v.encryption) AS r
                    ORDER BY v.ord
                    """,
                    binds + [CacheBus.channel]
                )
            )
        }
        guard found.count == batch.count else { throw HeraldError(.internal, "the tokens were not stored") }
        return zip(batch, found).map { request, row in
            Result { try Self.registered(request.token, row) }
        }
    }

    /// A registration's row of the batch's statement.
    private static func registered(_ token: PushToken, _ row: any SQLRow) throws -> (TokenRegistration, told: Bool) {
        guard try row.decode(column: "user_found", as: Bool.self) else { throw HeraldError.notFound("user", token.uid) }
        var stored = token
        stored.createdAt = try row.date("stored_created_at")
        let previousOwner = try row.optionalString("previous_uid")
        let registration = TokenRegistration(
            token: stored,
            movedFromUid: previousOwner.flatMap { $0 == token.uid ? nil : $0 },
            removedTokens: try row.decode(column: "removed", as: [String].self)
        )
        return (registration, try row.decode(column: "told", as: Bool.self))
    }

    static let registrationColumns: [BulkColumn] = [
        .text("app_id"), .text("token"), .text("uid"), .text("session_id"), .text("provider_id"), .text("platform"), .text("kind"),
        .bigint("created_at"), .bigint("last_seen_at"), .boolean("is_unique"), .bigint("max_per_user"), .text("encryption"),
        .text("notice"),
    ]

    private func registerInTransaction(_ token: PushToken, unique: Bool, maxPerUser: Int) async throws -> TokenRegistration {
        let lock = forUpdate
        return try await transaction { db in
            // Registrations of one user are serialised on the user's row, so the cap holds under
            // concurrent registrations (SQLite's transactions are serial already).
            guard
                try await db.raw(
                    """
                    SELECT uid FROM users WHERE app_id = \(bind: token.appId) AND uid = \(bind: token.uid)\(unsafeRaw: lock)
                    """
                ).firstRow() != nil
            else { throw HeraldError.notFound("user", token.uid) }

            let previousOwner = try await db.raw(
                """
                SELECT uid FROM push_tokens WHERE app_id = \(bind: token.appId) AND push_token = \(bind: token.token)\(unsafeRaw: lock)
                """
            ).firstRow()?.string("uid")

            let row = try await db.raw(
                """
                INSERT INTO push_tokens (
                    app_id, push_token, uid, session_id, provider_id, platform, token_kind, created_at, last_seen_at, encryption)
                VALUES (\(bind: token.appId), \(bind: token.token), \(bind: token.uid), \(bind: token.sessionId), \(bind: token.providerId),
                        \(bind: token.platform.rawValue), \(bind: token.kind.rawValue), \(bind: token.createdAt.ms), \(bind: token.lastSeenAt.ms),
                        \(bind: token.encryption?.storedText))
                ON CONFLICT (app_id, push_token) DO UPDATE SET
                    uid = excluded.uid, session_id = excluded.session_id, provider_id = excluded.provider_id,
                    platform = excluded.platform, token_kind = excluded.token_kind, last_seen_at = excluded.last_seen_at,
                    encryption = excluded.encryption
                RETURNING *
                """
            ).firstRow()
            guard let row else { throw HeraldError(.internal, "the token was not stored") }
            let stored = try Self.token(row)

            var removed: [String] = []
            if unique {
                removed += try await db.raw(
                    """
                    DELETE FROM push_tokens
                    WHERE app_id = \(bind: token.appId) AND uid = \(bind: token.uid) AND token_kind = \(bind: token.kind.rawValue)
                      AND push_token <> \(bind: token.token)
                    RETURNING push_token
                    """
                ).rows().map { try $0.string("push_token") }
            }
            // The least recently registered beyond the cap go.
            removed += try await db.raw(
                """
                DELETE FROM push_tokens WHERE app_id = \(bind: token.appId) AND uid = \(bind: token.uid) AND push_token NOT IN (
                    SELECT push_token FROM push_tokens WHERE app_id = \(bind: token.appId) AND uid = \(bind: token.uid)
                    ORDER BY last_seen_at DESC, push_token DESC LIMIT \(bind: maxPerUser))
                RETURNING push_token
                """
            ).rows().map { try $0.string("push_token") }
            let moved = previousOwner.flatMap { $0 == token.uid ? nil : $0 }
            return TokenRegistration(token: stored, movedFromUid: moved, removedTokens: removed)
        }
    }

    public func tokens(appId: String, uid: String) async throws -> [PushToken] {
        try await tokens(appId: appId, uids: [uid])[uid] ?? []
    }

    public func tokens(appId: String, sessionId: String) async throws -> [PushToken] {
        try await lookup { db in
            try await db.raw(
                """
                SELECT * FROM push_tokens WHERE app_id = \(bind: appId) AND session_id = \(bind: sessionId) ORDER BY last_seen_at DESC, push_token DESC
                """
            ).rows().map { try Self.token($0) }
        }
    }

    public func deleteToken(appId: String, uid: String, token: String) async throws -> Bool {
        let deleted = try await write { db in
            try await db.raw(
                """
                DELETE FROM push_tokens WHERE app_id = \(bind: appId) AND uid = \(bind: uid) AND push_token = \(bind: token) RETURNING push_token
                """
            ).firstRow() != nil
        }
        if deleted { await changed(.users(appId: appId, uids: [uid])) }
        return deleted
    }

    public func deleteTokens(appId: String, sessionId: String) async throws -> Int {
        let owners = try await write { db in
            try await db.raw(
                """
                DELETE FROM push_tokens WHERE app_id = \(bind: appId) AND session_id = \(bind: sessionId) RETURNING uid
                """
            ).rows().map { try $0.string("uid") }
        }
        if !owners.isEmpty { await changed(.users(appId: appId, uids: Array(Set(owners)))) }
        return owners.count
    }

    public func prune(appId: String, token: String, reason: String, hint: String?, invalidSince: Date?, at date: Date) async throws -> Bool {
        let owner = try await transaction { db -> String? in
            guard
                let row = try await db.raw(
                    """
                    DELETE FROM push_tokens WHERE app_id = \(bind: appId) AND push_token = \(bind: token) RETURNING *
                    """
                ).firstRow()
            else { return nil }
            let removed = try Self.token(row)
            try await db.raw(
                """
                INSERT INTO pruned_tokens (app_id, push_token, uid, session_id, provider_id, platform, created_at, last_seen_at,
                                           reason, hint, invalid_since, pruned_at)
                VALUES (\(bind: appId), \(bind: token), \(bind: removed.uid), \(bind: removed.sessionId), \(bind: removed.providerId),
                        \(bind: removed.platform.rawValue), \(bind: removed.createdAt.ms), \(bind: removed.lastSeenAt.ms),
                        \(bind: reason), \(bind: hint), \(bind: invalidSince?.ms), \(bind: date.ms))
                """
            ).perform()
            return removed.uid
        }
        guard let owner else { return false }
        await changed(.users(appId: appId, uids: [owner]))
        return true
    }

    public func prunedTokens(appId: String, uid: String?, limit: Int) async throws -> [PrunedToken] {
        try await lookup { db in
            var query = db.select().column("*").from("pruned_tokens").where("app_id", .equal, appId)
            if let uid { query = query.where("uid", .equal, uid) }
            return try await query.orderBy("pruned_at", .descending).limit(limit).rows().map { row in
                PrunedToken(
                    token: try Self.token(row, withKeys: false),
                    reason: try row.string("reason"),
                    hint: try row.optionalString("hint"),
                    invalidSince: try row.optionalDate("invalid_since"),
                    prunedAt: try row.date("pruned_at")
                )
            }
        }
    }

    /// A token row; `withKeys: false` for rows without the device's key (`pruned_tokens`).
    static func token(_ row: any SQLRow, withKeys: Bool = true) throws -> PushToken {
        let platformText = try row.string("platform")
        guard let platform = PushPlatform(rawValue: platformText) else {
            throw HeraldError(.internal, "stored token has unknown platform \(platformText)")
        }
        return PushToken(
            appId: try row.string("app_id"),
            uid: try row.string("uid"),
            sessionId: try row.string("session_id"),
            providerId: try row.string("provider_id"),
            platform: platform,
            token: try row.string("push_token"),
            createdAt: try row.date("created_at"),
            lastSeenAt: try row.date("last_seen_at"),
            encryption: withKeys ? PushEncryptionKeys(storedText: try row.optionalString("encryption")) : nil
        )
    }
}
