import Foundation
import HeraldCore
import SQLKit

extension SQLStore: AppRepository {
    public func createApp(_ app: App, firstKeyId: String, keyHash: String) async throws {
        try await transaction { db in
            try await db.raw(
                """
                INSERT INTO apps (id, name, region, push_enabled, max_tokens_per_user, settings, created_at)
                VALUES (\(bind: app.id), \(bind: app.name), \(bind: app.region), \(bind: app.settings.enabled),
                        \(bind: app.settings.maxTokensPerUser), \(bind: try StoredJSON.text(app.settings.stored)), \(bind: app.createdAt.ms))
                """
            ).perform()
            try await db.raw(
                """
                INSERT INTO api_keys (id, app_id, key_hash, created_at)
                VALUES (\(bind: firstKeyId), \(bind: app.id), \(bind: keyHash), \(bind: app.createdAt.ms))
                """
            ).perform()
        }
        // A new key's hash prefix was not a key before: only this process can have looked it up.
        cache.apiKeys.forget([Self.prefix(keyHash)])
        await changed(.app(app.id))
    }

    public func app(id: String) async throws -> App? {
        try await cached(cache.apps, [id]) { _ in
            [id: try await lookup { db in try await db.raw("SELECT * FROM apps WHERE id = \(bind: id)").firstRow().map(Self.app) }]
        }[id] ?? nil
    }

    public func apps() async throws -> [App] {
        try await lookup { db in
            try await db.raw("SELECT * FROM apps ORDER BY created_at, id").rows().map(Self.app)
        }
    }

    public func addKey(appId: String, keyId: String, keyHash: String, at date: Date) async throws {
        try await write { db in
            try await db.raw(
                """
                INSERT INTO api_keys (id, app_id, key_hash, created_at)
                VALUES (\(bind: keyId), \(bind: appId), \(bind: keyHash), \(bind: date.ms))
                """
            ).perform()
        }
        cache.apiKeys.forget([Self.prefix(keyHash)])
    }

    public func revokeKey(appId: String, keyId: String, at date: Date) async throws -> Bool {
        let revoked = try await write { db in
            try await db.raw(
                """
                UPDATE api_keys SET revoked_at = \(bind: date.ms)
                WHERE app_id = \(bind: appId) AND id = \(bind: keyId) AND revoked_at IS NULL
                RETURNING id
                """
            ).firstRow() != nil
        }
        if revoked { await changed(.credentials) }
        return revoked
    }

    public func keys(appId: String) async throws -> [APIKeyInfo] {
        try await lookup { db in
            try await db.raw("SELECT id, created_at, revoked_at FROM api_keys WHERE app_id = \(bind: appId) ORDER BY created_at, id")
                .rows().map {
                    APIKeyInfo(id: try $0.string("id"), createdAt: try $0.date("created_at"), revokedAt: try $0.optionalDate("revoked_at"))
                }
        }
    }

    public func apiKeys(hashPrefix: String) async throws -> [HashedCredential<String>] {
        try await cached(cache.apiKeys, [hashPrefix]) { _ in
            [
                hashPrefix: try await lookup { db in
                    try await db.raw(
                        "SELECT key_hash, app_id FROM api_keys WHERE substr(key_hash, 1, 16) = \(bind: hashPrefix) AND revoked_at IS NULL"
                    )
                    .rows().map { HashedCredential(hash: try $0.string("key_hash"), owner: try $0.string("app_id")) }
                }
            ]
        }[hashPrefix] ?? []
    }

    /// The part of a credential's hash it is looked up by.
    static func prefix(_ hash: String) -> String {
        String(hash.prefix(HashedCredential<String>.lookupPrefixLength))
    }

    public func updateSettings(appId: String, settings: PushSettings) async throws {
        let stored = try StoredJSON.text(settings.stored)
        try await write { db in
            try await db.raw(
                """
                UPDATE apps SET push_enabled = \(bind: settings.enabled), max_tokens_per_user = \(bind: settings.maxTokensPerUser),
                                settings = \(bind: stored)
                WHERE id = \(bind: appId)
                """
            ).perform()
        }
        await changed(.app(appId))
    }

    static func app(_ row: any SQLRow) throws -> App {
        App(
            id: try row.string("id"),
            name: try row.string("name"),
            region: try row.string("region"),
            settings: PushSettings(
                enabled: try row.bool("push_enabled"),
                maxTokensPerUser: try row.int("max_tokens_per_user"),
                stored: try row.optionalString("settings").map { try StoredJSON.value(PushSettings.Stored.self, from: $0) } ?? .init()
            ),
            createdAt: try row.date("created_at")
        )
    }
}
