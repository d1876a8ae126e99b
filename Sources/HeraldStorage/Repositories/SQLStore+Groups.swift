import Foundation
import HeraldCore
import HeraldModels
import SQLKit

extension SQLStore: GroupRepository {
    /// Rows per multi-row statement when adding members: few round trips, well under both
    /// databases' bind-parameter limits.
    static let memberChunk = 1_000

    public func upsertGroup(appId: String, _ group: Group) async throws -> Group {
        let metadata = try group.metadata.map { try JSONValue.object($0).jsonText() }
        return try await write { db in
            try await db.raw(
                """
                INSERT INTO chat_groups (app_id, guid, name, icon, type, password_hash, metadata, owner, created_at, updated_at)
                VALUES (\(bind: appId), \(bind: group.guid), \(bind: group.name), \(bind: group.icon), \(bind: group.type.rawValue),
                        \(bind: group.passwordHash), \(bind: metadata), \(bind: group.owner), \(bind: group.createdAt.ms), \(bind: group.updatedAt.ms))
                ON CONFLICT (app_id, guid) DO UPDATE SET
                    name = excluded.name, icon = excluded.icon, type = excluded.type, password_hash = excluded.password_hash,
                    metadata = excluded.metadata, owner = excluded.owner, updated_at = excluded.updated_at
                """
            ).perform()
            guard let stored = try await Self.group(db, appId: appId, guid: group.guid) else {
                throw HeraldError(.internal, "the group was not stored")
            }
            return stored
        }
    }

    public func group(appId: String, guid: String) async throws -> Group? {
        try await lookup { db in try await Self.group(db, appId: appId, guid: guid) }
    }

    public func deleteGroup(appId: String, guid: String) async throws -> Bool {
        try await transaction { db in
            let deleted =
                try await db.raw("DELETE FROM chat_groups WHERE app_id = \(bind: appId) AND guid = \(bind: guid) RETURNING guid").firstRow() != nil
            if deleted {
                try await db.raw("DELETE FROM group_members WHERE app_id = \(bind: appId) AND guid = \(bind: guid)").perform()
            }
            return deleted
        }
    }

    public func addMembers(appId: String, guid: String, uids: [String], scope: MemberScope, at date: Date) async throws -> MembersAdded {
        try await transaction { db in
            var result = MembersAdded(added: 0, updated: 0, notFound: [])
            var start = 0
            while start < uids.count {
                let chunk = Array(uids[start..<min(start + Self.memberChunk, uids.count)])
                start += chunk.count
                let users = Set(
                    try await db.select().column("uid").from("users")
                        .where("app_id", .equal, appId).where("uid", .in, chunk)
                        .rows().map { try $0.string("uid") }
                )
                let members = Set(
                    try await db.select().column("uid").from("group_members")
                        .where("app_id", .equal, appId).where("guid", .equal, guid).where("uid", .in, chunk)
                        .rows().map { try $0.string("uid") }
                )
                let known = chunk.filter { users.contains($0) }
                result.notFound += chunk.filter { !users.contains($0) }
                result.updated += members.count
                result.added += known.count - members.count
                guard !known.isEmpty else { continue }
                var insert = db.insert(into: "group_members").columns("app_id", "guid", "uid", "scope", "joined_at")
                for uid in known {
                    insert = insert.values(SQLBind(appId), SQLBind(guid), SQLBind(uid), SQLBind(scope.rawValue), SQLBind(date.ms))
                }
                try await insert.onConflict(with: ["app_id", "guid", "uid"]) { $0.set(excludedValueOf: "scope") }.perform()
            }
            return result
        }
    }

    public func removeMember(appId: String, guid: String, uid: String) async throws -> Bool {
        try await write { db in
            try await db.raw(
                """
                DELETE FROM group_members WHERE app_id = \(bind: appId) AND guid = \(bind: guid) AND uid = \(bind: uid) RETURNING uid
                """
            ).firstRow() != nil
        }
    }

    public func members(appId: String, guid: String, afterUid: String?, limit: Int) async throws -> [GroupMember] {
        try await lookup { db in
            var query = db.select().columns("uid", "scope", "joined_at").from("group_members")
                .where("app_id", .equal, appId).where("guid", .equal, guid)
            if let afterUid { query = query.where("uid", .greaterThan, afterUid) }
            return try await query.orderBy("uid").limit(limit).rows().map { row in
                GroupMember(
                    uid: try row.string("uid"),
                    scope: MemberScope(rawValue: try row.string("scope")) ?? .participant,
                    joinedAt: try row.date("joined_at")
                )
            }
        }
    }

    static func group(_ db: any SQLDatabase, appId: String, guid: String) async throws -> Group? {
        guard let row = try await db.raw("SELECT * FROM chat_groups WHERE app_id = \(bind: appId) AND guid = \(bind: guid)").firstRow() else {
            return nil
        }
        let count =
            try await db.raw("SELECT COUNT(*) AS n FROM group_members WHERE app_id = \(bind: appId) AND guid = \(bind: guid)")
            .firstRow()?.int("n") ?? 0
        return Group(
            guid: try row.string("guid"),
            name: try row.string("name"),
            icon: try row.optionalString("icon"),
            type: GroupType(rawValue: try row.string("type")) ?? .public,
            passwordHash: try row.optionalString("password_hash"),
            metadata: try object(try row.optionalString("metadata")),
            membersCount: count,
            owner: try row.optionalString("owner"),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at")
        )
    }
}
