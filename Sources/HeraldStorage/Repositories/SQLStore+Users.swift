import Foundation
import HeraldCore
import HeraldModels
import SQLKit

extension SQLStore: UserRepository {
    public func upsertUser(appId: String, _ user: User) async throws -> User {
        let metadata = try user.metadata.map { try JSONValue.object($0).jsonText() }
        let tags = StoredJSON.text(strings: user.tags)
        let stored = try await write { db in
            let row = try await db.raw(
                """
                INSERT INTO users (app_id, uid, name, avatar, metadata, tags, locale, time_zone, created_at, updated_at)
                VALUES (\(bind: appId), \(bind: user.uid), \(bind: user.name), \(bind: user.avatar), \(bind: metadata),
                        \(bind: tags), \(bind: user.locale), \(bind: user.timeZone), \(bind: user.createdAt.ms), \(bind: user.updatedAt.ms))
                ON CONFLICT (app_id, uid) DO UPDATE SET
                    name = excluded.name, avatar = excluded.avatar, metadata = excluded.metadata, tags = excluded.tags,
                    locale = excluded.locale, time_zone = excluded.time_zone, updated_at = excluded.updated_at
                RETURNING *
                """
            ).firstRow()
            guard let row else { throw HeraldError(.internal, "the user was not stored") }
            return try Self.user(row)
        }
        await changed(.users(appId: appId, uids: [user.uid]))
        return stored
    }

    public func upsertUsers(appId: String, _ users: [User]) async throws {
        let rows = try users.map { user in
            [
                SQLBind(appId), SQLBind(user.uid), SQLBind(user.name), SQLBind(user.avatar),
                SQLBind(try user.metadata.map { try JSONValue.object($0).jsonText() }), SQLBind(StoredJSON.text(strings: user.tags)),
                SQLBind(user.locale), SQLBind(user.timeZone), SQLBind(user.createdAt.ms), SQLBind(user.updatedAt.ms),
            ]
        }
        try await transaction { db in
            for chunk in rows.chunks(of: Self.rowChunk) {
                var insert = db.insert(into: "users").columns(
                    "app_id",
                    "uid",
                    "name",
                    "avatar",
                    "metadata",
                    "tags",
                    "locale",
                    "time_zone",
                    "created_at",
                    "updated_at"
                )
                for row in chunk { insert = insert.values(row) }
                try await insert.onConflict(with: ["app_id", "uid"]) { conflict in
                    conflict.set(excludedValueOf: "name").set(excludedValueOf: "avatar").set(excludedValueOf: "metadata").set(excludedValueOf: "tags")
                        .set(excludedValueOf: "locale").set(excludedValueOf: "time_zone").set(excludedValueOf: "updated_at")
                }.perform()
            }
        }
        await changed(.users(appId: appId, uids: users.map(\.uid)))
    }

    public func user(appId: String, uid: String) async throws -> User? {
        try await users(appId: appId, uids: [uid])[uid]
    }

    public func deleteUser(appId: String, uid: String) async throws -> Bool {
        let deleted = try await transaction { db in
            let deleted = try await db.raw("DELETE FROM users WHERE app_id = \(bind: appId) AND uid = \(bind: uid) RETURNING uid").firstRow() != nil
            guard deleted else { return false }
            try await db.raw("DELETE FROM push_tokens WHERE app_id = \(bind: appId) AND uid = \(bind: uid)").perform()
            try await db.raw("DELETE FROM sessions WHERE app_id = \(bind: appId) AND uid = \(bind: uid)").perform()
            try await db.raw("DELETE FROM group_members WHERE app_id = \(bind: appId) AND uid = \(bind: uid)").perform()
            return true
        }
        if deleted { await changed(.users(appId: appId, uids: [uid]), .credentials) }
        return deleted
    }

    public func searchUsers(appId: String, query: String, limit: Int) async throws -> [User] {
        let escaped = query.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        let pattern = "%" + escaped + "%"
        return try await lookup { db in
            try await db.raw(
                """
                SELECT * FROM users WHERE app_id = \(bind: appId)
                  AND (LOWER(uid) LIKE \(bind: pattern) ESCAPE '\\' OR LOWER(name) LIKE \(bind: pattern) ESCAPE '\\')
                ORDER BY uid LIMIT \(bind: limit)
                """
            ).rows().map(Self.user)
        }
    }

    static func user(_ row: any SQLRow) throws -> User {
        User(
            uid: try row.string("uid"),
            name: try row.string("name"),
            avatar: try row.optionalString("avatar"),
            metadata: try object(try row.optionalString("metadata")),
            tags: try StoredJSON.strings(from: try row.string("tags")),
            locale: try row.optionalString("locale"),
            timeZone: try row.optionalString("time_zone"),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at")
        )
    }

    static func object(_ text: String?) throws -> JSONObject? {
        guard let text else { return nil }
        guard case .object(let object) = try JSONValue.parse(text) else { return nil }
        return object
    }
}
