import Foundation
import HeraldCore
import SQLKit

/// Presence shared by the Herald processes of one PostgreSQL database (and testable on SQLite).
extension SQLStore: PresenceStore {
    public func heartbeat(instance: String, at date: Date) async throws {
        try await write { db in
            try await db.raw(
                """
                INSERT INTO herald_instances (instance_id, started_at, heartbeat_at) VALUES (\(bind: instance), \(bind: date.ms), \(bind: date.ms))
                ON CONFLICT (instance_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at
                """
            ).perform()
        }
    }

    public func markOnline(_ record: PresenceRecord) async throws {
        try await write { db in
            try await db.raw(
                """
                INSERT INTO presence (session_id, instance_id, app_id, uid, since, offline_at)
                VALUES (\(bind: record.sessionId), \(bind: record.instance), \(bind: record.appId), \(bind: record.uid), \(bind: record.since.ms), NULL)
                ON CONFLICT (session_id, instance_id) DO UPDATE SET
                    offline_at = NULL,
                    since = CASE WHEN presence.offline_at IS NULL THEN presence.since ELSE excluded.since END
                """
            ).perform()
        }
    }

    public func markOffline(appId: String, sessionId: String, instance: String, at date: Date) async throws {
        try await write { db in
            try await db.raw(
                """
                UPDATE presence SET offline_at = \(bind: date.ms)
                WHERE session_id = \(bind: sessionId) AND instance_id = \(bind: instance) AND app_id = \(bind: appId)
                """
            ).perform()
        }
    }

    public func presence(appId: String, uids: [String], liveSince: Date) async throws -> [PresenceRecord] {
        try await presence(appId: appId, column: "uid", values: uids, liveSince: liveSince)
    }

    public func presence(appId: String, sessionIds: [String], liveSince: Date) async throws -> [PresenceRecord] {
        try await presence(appId: appId, column: "session_id", values: sessionIds, liveSince: liveSince)
    }

    /// Rows of live processes, asked for in chunks (SQLite binds at most 32,766 values).
    private func presence(appId: String, column: String, values: [String], liveSince: Date) async throws -> [PresenceRecord] {
        guard !values.isEmpty else { return [] }
        var records: [PresenceRecord] = []
        for start in stride(from: 0, to: values.count, by: 5_000) {
            let chunk = Array(values[start..<min(start + 5_000, values.count)])
            records += try await lookup { db in
                try await db.select().column(SQLColumn(SQLLiteral.all, table: SQLIdentifier("p")))
                    .from(SQLAlias(SQLIdentifier("presence"), as: SQLIdentifier("p")))
                    .join(
                        SQLAlias(SQLIdentifier("herald_instances"), as: SQLIdentifier("i")),
                        on: SQLColumn("instance_id", table: "i"),
                        .equal,
                        SQLColumn("instance_id", table: "p")
                    )
                    .where(SQLColumn("app_id", table: "p"), .equal, SQLBind(appId))
                    .where(SQLColumn(column, table: "p"), .in, SQLBind.group(chunk))
                    .where(SQLColumn("heartbeat_at", table: "i"), .greaterThanOrEqual, SQLBind(liveSince.ms))
                    .rows()
                    .map { row in
                        PresenceRecord(
                            appId: try row.string("app_id"),
                            uid: try row.string("uid"),
                            sessionId: try row.string("session_id"),
                            instance: try row.string("instance_id"),
                            since: try row.date("since"),
                            offlineAt: try row.optionalDate("offline_at")
                        )
                    }
            }
        }
        return records
    }

    public func purgePresence(offlineBefore: Date, deadBefore: Date) async throws {
        try await transaction { db in
            try await db.raw("DELETE FROM presence WHERE offline_at IS NOT NULL AND offline_at < \(bind: offlineBefore.ms)").perform()
            try await db.raw(
                """
                DELETE FROM presence WHERE instance_id IN (SELECT instance_id FROM herald_instances WHERE heartbeat_at < \(bind: deadBefore.ms))
                """
            ).perform()
            try await db.raw("DELETE FROM herald_instances WHERE heartbeat_at < \(bind: deadBefore.ms)").perform()
            try await db.raw("DELETE FROM realtime_payloads WHERE created_at < \(bind: deadBefore.ms)").perform()
        }
    }

    public func retire(instance: String) async throws {
        try await transaction { db in
            try await db.raw("DELETE FROM presence WHERE instance_id = \(bind: instance)").perform()
            try await db.raw("DELETE FROM herald_instances WHERE instance_id = \(bind: instance)").perform()
        }
    }

    /// The processes that heartbeated at or after `since`.
    public func liveInstances(since: Date) async throws -> Set<String> {
        try await lookup { db in try await Self.liveInstances(db, since: since) }
    }

    /// The processes that heartbeated at or after `since`, but `except` (the cache bus asks for
    /// the others).
    static func liveInstances(_ db: any SQLDatabase, since: Date, except: String? = nil) async throws -> Set<String> {
        var sql: SQLQueryString = "SELECT instance_id FROM herald_instances WHERE heartbeat_at >= \(bind: since.ms)"
        if let except { sql += " AND instance_id <> \(bind: except)" }
        return Set(try await db.raw(sql).rows().map { try $0.string("instance_id") })
    }
}
