import Foundation
import HeraldCore
import SQLKit

extension SQLStore: ProviderRepository {
    public func insertProvider(_ credential: ProviderCredential) async throws -> Bool {
        let config = try StoredJSON.text(credential.config)
        let inserted = try await write { db in
            try await db.raw(
                """
                INSERT INTO providers (app_id, provider_id, kind, config, secret, created_at, updated_at)
                VALUES (\(bind: credential.appId), \(bind: credential.providerId), \(bind: credential.kind.rawValue),
                        \(bind: config), \(bind: credential.sealedSecret), \(bind: credential.createdAt.ms), \(bind: credential.updatedAt.ms))
                ON CONFLICT (app_id, provider_id) DO NOTHING
                RETURNING provider_id
                """
            ).firstRow() != nil
        }
        if inserted { await changed(.app(credential.appId)) }
        return inserted
    }

    public func updateProvider(_ credential: ProviderCredential) async throws {
        let config = try StoredJSON.text(credential.config)
        try await write { db in
            try await db.raw(
                """
                UPDATE providers SET config = \(bind: config), secret = \(bind: credential.sealedSecret),
                    updated_at = \(bind: credential.updatedAt.ms)
                WHERE app_id = \(bind: credential.appId) AND provider_id = \(bind: credential.providerId)
                """
            ).perform()
        }
        await changed(.app(credential.appId))
    }

    public func markProviderBroken(appId: String, providerId: String, reason: String, at date: Date, version: Date) async throws {
        try await transaction { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT * FROM providers WHERE app_id = \(bind: appId) AND provider_id = \(bind: providerId)\(unsafeRaw: self.forUpdate)
                    """
                ).firstRow()
            else { return }
            var credential = try Self.provider(row)
            // A credential changed since the failing push was made is the operator's fix: leave it be.
            guard credential.updatedAt.ms == version.ms, credential.config.broken == nil else { return }
            credential.config.broken = BrokenCredential(reason: String(reason.prefix(500)), since: date)
            try await db.raw(
                """
                UPDATE providers SET config = \(bind: try StoredJSON.text(credential.config))
                WHERE app_id = \(bind: appId) AND provider_id = \(bind: providerId)
                """
            ).perform()
        }
        await changed(.app(appId))
    }

    public func provider(appId: String, providerId: String) async throws -> ProviderCredential? {
        try await providers(appId: appId).first { $0.providerId == providerId }
    }

    public func providers(appId: String) async throws -> [ProviderCredential] {
        try await cached(cache.providers, [appId]) { _ in
            [
                appId: try await lookup { db in
                    try await db.raw("SELECT * FROM providers WHERE app_id = \(bind: appId) ORDER BY provider_id").rows().map(Self.provider)
                }
            ]
        }[appId] ?? []
    }

    public func deleteProvider(appId: String, providerId: String, force: Bool) async throws -> ProviderDeletion {
        let lock = forUpdate
        let deletion = try await transaction { db -> ProviderDeletion in
            guard
                try await db.raw(
                    """
                    SELECT provider_id FROM providers WHERE app_id = \(bind: appId) AND provider_id = \(bind: providerId)\(unsafeRaw: lock)
                    """
                ).firstRow() != nil
            else { return .notFound }
            let tokens =
                try await db.raw(
                    """
                    SELECT COUNT(*) AS n FROM push_tokens WHERE app_id = \(bind: appId) AND provider_id = \(bind: providerId)
                    """
                ).firstRow()?.int("n") ?? 0
            if tokens > 0 && !force { return .inUse(tokens: tokens) }
            try await db.raw("DELETE FROM push_tokens WHERE app_id = \(bind: appId) AND provider_id = \(bind: providerId)").perform()
            try await db.raw("DELETE FROM providers WHERE app_id = \(bind: appId) AND provider_id = \(bind: providerId)").perform()
            return .deleted(tokensRemoved: tokens)
        }
        if case .deleted(let tokens) = deletion {
            await changed(.app(appId))
            if tokens > 0 { await changed(.allUsers(appId: appId)) }
        }
        return deletion
    }

    static func provider(_ row: any SQLRow) throws -> ProviderCredential {
        ProviderCredential(
            appId: try row.string("app_id"),
            providerId: try row.string("provider_id"),
            config: try StoredJSON.value(ProviderConfig.self, from: try row.string("config")),
            sealedSecret: try row.string("secret"),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at")
        )
    }
}
