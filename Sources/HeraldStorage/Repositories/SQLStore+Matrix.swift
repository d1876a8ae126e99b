import Foundation
import HeraldCore
import SQLKit

/// The Matrix push gateway's app id bindings and dead pushkeys.
extension SQLStore: MatrixRepository {
    public func putMatrixAppId(_ binding: MatrixAppBinding) async throws -> Bool {
        let settings = try StoredJSON.text(binding)
        return try await write { db in
            // Another app's binding is left alone (no row comes back); this app's is replaced.
            try await db.raw(
                """
                INSERT INTO matrix_app_ids (pattern, app_id, provider_id, settings, created_at, updated_at)
                VALUES (\(bind: binding.pattern), \(bind: binding.appId), \(bind: binding.providerId), \(bind: settings),
                        \(bind: binding.createdAt.ms), \(bind: binding.updatedAt.ms))
                ON CONFLICT (pattern) DO UPDATE SET provider_id = excluded.provider_id, settings = excluded.settings,
                    updated_at = excluded.updated_at
                WHERE matrix_app_ids.app_id = excluded.app_id
                RETURNING pattern
                """
            ).firstRow() != nil
        }
    }

    public func matrixAppIds(appId: String?) async throws -> [MatrixAppBinding] {
        try await lookup { db in
            var query = db.select().column("settings").from("matrix_app_ids")
            if let appId { query = query.where("app_id", .equal, appId) }
            return try await query.orderBy("pattern").all().map { row in
                try StoredJSON.value(MatrixAppBinding.self, from: try row.string("settings"))
            }
        }
    }

    public func deleteMatrixAppId(appId: String, pattern: String) async throws -> Bool {
        try await write { db in
            try await db.raw(
                "DELETE FROM matrix_app_ids WHERE app_id = \(bind: appId) AND pattern = \(bind: pattern) RETURNING pattern"
            ).firstRow() != nil
        }
    }

    public func rejectPushkeys(_ pushkeys: [(matrixAppId: String, pushkey: String, reason: String)], at date: Date) async throws {
        guard !pushkeys.isEmpty else { return }
        try await write { db in
            for key in pushkeys {
                try await db.raw(
                    """
                    INSERT INTO matrix_rejected_pushkeys (matrix_app_id, pushkey, reason, rejected_at)
                    VALUES (\(bind: key.matrixAppId), \(bind: key.pushkey), \(bind: key.reason), \(bind: date.ms))
                    ON CONFLICT (matrix_app_id, pushkey) DO UPDATE SET reason = excluded.reason, rejected_at = excluded.rejected_at
                    """
                ).perform()
            }
        }
    }

    public func rejectedPushkeys(_ pairs: [(matrixAppId: String, pushkey: String)]) async throws -> Set<String> {
        guard !pairs.isEmpty else { return [] }
        let pushkeys = Array(Set(pairs.map(\.pushkey)))
        return try await lookup { db in
            var found = Set<String>()
            for chunk in pushkeys.chunks(of: Self.rowChunk) {
                for row in try await db.select().columns("matrix_app_id", "pushkey").from("matrix_rejected_pushkeys")
                    .where("pushkey", .in, chunk).all()
                {
                    found.insert(try row.string("matrix_app_id") + "\u{0}" + row.string("pushkey"))
                }
            }
            return found.intersection(pairs.map { $0.matrixAppId + "\u{0}" + $0.pushkey })
        }
    }
}
