import Foundation
import HeraldCore
import HeraldModels
import SQLKit

/// Preferences, mutes, templates and unread counts.
extension SQLStore: PreferenceRepository, TemplateRepository, UnreadRepository {
    public func preferences(appId: String, uids: [String]) async throws -> [String: NotificationPreferences] {
        try await perUser(cache.preferences, appId: appId, uids: uids) { chunk in
            try await storedPreferences(appId: appId, chunk).mapValues { $0 }
        }
    }

    /// The preferences stored for these users (those who set none are left out).
    func storedPreferences(appId: String, _ uids: [String]) async throws -> [String: NotificationPreferences] {
        var found: [String: NotificationPreferences] = [:]
        let rows = try await lookup { db in
            try await db.select().columns("uid", "prefs").from("preferences").where("app_id", .equal, appId).where("uid", .in, uids).rows()
        }
        for row in rows {
            found[try row.string("uid")] = try StoredJSON.value(NotificationPreferences.self, from: try row.string("prefs"))
        }
        return found
    }

    public func setPreferences(appId: String, uid: String, _ preferences: NotificationPreferences, at date: Date) async throws {
        let text = try StoredJSON.text(preferences)
        try await write { db in
            try await db.raw(
                """
                INSERT INTO preferences (app_id, uid, prefs, updated_at) VALUES (\(bind: appId), \(bind: uid), \(bind: text), \(bind: date.ms))
                ON CONFLICT (app_id, uid) DO UPDATE SET prefs = excluded.prefs, updated_at = excluded.updated_at
                """
            ).perform()
        }
        await changed(.users(appId: appId, uids: [uid]))
    }

    public func mutes(appId: String, uid: String) async throws -> [ConversationMute] {
        try await mutes(appId: appId, uids: [uid])[uid] ?? []
    }

    public func mutes(appId: String, uids: [String]) async throws -> [String: [ConversationMute]] {
        try await perUser(cache.mutes, appId: appId, uids: uids) { chunk in
            try await storedMutes(appId: appId, chunk)
        }.filter { !$0.value.isEmpty }
    }

    /// The mutes stored for these users, by conversation id (users with none are left out).
    func storedMutes(appId: String, _ uids: [String]) async throws -> [String: [ConversationMute]] {
        var found: [String: [ConversationMute]] = [:]
        let rows = try await lookup { db in
            try await db.select().columns("uid", "conversation_id", "until").from("mutes")
                .where("app_id", .equal, appId).where("uid", .in, uids).orderBy("conversation_id").rows()
        }
        for row in rows {
            found[try row.string("uid"), default: []].append(
                ConversationMute(conversationId: try row.string("conversation_id"), until: try row.optionalDate("until"))
            )
        }
        return found
    }

    public func setMute(appId: String, uid: String, _ mute: ConversationMute, at date: Date) async throws {
        try await write { db in
            try await db.raw(
                """
                INSERT INTO mutes (app_id, uid, conversation_id, until, created_at)
                VALUES (\(bind: appId), \(bind: uid), \(bind: mute.conversationId), \(bind: mute.until?.ms), \(bind: date.ms))
                ON CONFLICT (app_id, uid, conversation_id) DO UPDATE SET until = excluded.until
                """
            ).perform()
        }
        await changed(.users(appId: appId, uids: [uid]))
    }

    public func deleteMute(appId: String, uid: String, conversationId: String) async throws -> Bool {
        let deleted = try await write { db in
            try await db.raw(
                """
                DELETE FROM mutes WHERE app_id = \(bind: appId) AND uid = \(bind: uid) AND conversation_id = \(bind: conversationId) RETURNING uid
                """
            ).firstRow() != nil
        }
        if deleted { await changed(.users(appId: appId, uids: [uid])) }
        return deleted
    }

    // MARK: Templates

    public func templates(appId: String) async throws -> [PushTemplate] {
        try await cached(cache.templates, [appId]) { _ in
            [
                appId: try await lookup { db in
                    try await db.raw("SELECT template FROM push_templates WHERE app_id = \(bind: appId) ORDER BY event_type, receiver_type, locale")
                        .rows().map { try StoredJSON.value(PushTemplate.self, from: try $0.string("template")) }
                }
            ]
        }[appId] ?? []
    }

    public func upsertTemplate(appId: String, _ template: PushTemplate) async throws {
        let text = try StoredJSON.text(template)
        try await write { db in
            try await db.raw(
                """
                INSERT INTO push_templates (app_id, event_type, receiver_type, locale, template, updated_at)
                VALUES (\(bind: appId), \(bind: template.eventType.rawValue), \(bind: template.receiverType.rawValue), \(bind: template.locale), \(bind: text),
                        \(bind: (template.updatedAt ?? Date()).ms))
                ON CONFLICT (app_id, event_type, receiver_type, locale) DO UPDATE SET template = excluded.template, updated_at = excluded.updated_at
                """
            ).perform()
        }
        await changed(.app(appId))
    }

    public func deleteTemplate(appId: String, eventType: EventKind, receiverType: ReceiverType, locale: String) async throws -> Bool {
        let deleted = try await write { db in
            try await db.raw(
                """
                DELETE FROM push_templates WHERE app_id = \(bind: appId) AND event_type = \(bind: eventType.rawValue)
                  AND receiver_type = \(bind: receiverType.rawValue) AND locale = \(bind: locale) RETURNING locale
                """
            ).firstRow() != nil
        }
        if deleted { await changed(.app(appId)) }
        return deleted
    }

    // MARK: Unread counts

    public func unreadCounts(appId: String, uids: [String]) async throws -> [String: [String: Int]] {
        // From the recipients' records, whose counts move in place with each fan-out's commit.
        try await records(appId: appId, uids: uids).compactMapValues { $0.unread.isEmpty ? nil : $0.unread }
    }

    /// The unread counts above zero stored for these users (users with none are left out).
    func storedUnreadCounts(appId: String, _ uids: [String]) async throws -> [String: [String: Int]] {
        var found: [String: [String: Int]] = [:]
        let rows = try await lookup { db in
            try await db.select().columns("uid", "conversation_id", "count").from("unread_counts")
                .where("app_id", .equal, appId).where("uid", .in, uids).where("count", .greaterThan, 0).rows()
        }
        for row in rows {
            found[try row.string("uid"), default: [:]][try row.string("conversation_id")] = try row.int("count")
        }
        return found
    }
}

/// The fan-out's bulk reads of users and tokens.
extension SQLStore: RecipientDirectory {
    public func users(appId: String, uids: [String]) async throws -> [String: User] {
        try await perUser(cache.users, appId: appId, uids: uids) { chunk in
            var found: [String: User?] = [:]
            let rows = try await lookup { db in
                try await db.select().column("*").from("users").where("app_id", .equal, appId).where("uid", .in, chunk).rows()
            }
            for row in rows {
                let user = try Self.user(row)
                found[user.uid] = user
            }
            return found
        }
    }

    public func tokens(appId: String, uids: [String]) async throws -> [String: [PushToken]] {
        try await perUser(cache.tokens, appId: appId, uids: uids) { chunk in
            try await storedTokens(appId: appId, chunk)
        }
    }

    /// The tokens of these users, each user's newest first (users with none are left out).
    func storedTokens(appId: String, _ uids: [String]) async throws -> [String: [PushToken]] {
        var found: [String: [PushToken]] = [:]
        for token in try await lookup({ db in
            try await db.select().column("*").from("push_tokens").where("app_id", .equal, appId).where("uid", .in, uids)
                .orderBy("last_seen_at", .descending).orderBy("push_token", .descending).rows().map { try Self.token($0) }
        }) {
            found[token.uid, default: []].append(token)
        }
        return found
    }

    /// The four reads above for the users not cached, run side by side (each on a reader of its
    /// own), and kept as one record a user: the fan-out looks each recipient up once.
    public func records(appId: String, uids: [String]) async throws -> [String: RecipientRecord] {
        try await perUser(cache.records, appId: appId, uids: uids) { chunk in
            async let preferences = storedPreferences(appId: appId, chunk)
            async let mutes = storedMutes(appId: appId, chunk)
            async let tokens = storedTokens(appId: appId, chunk)
            async let unread = storedUnreadCounts(appId: appId, chunk)
            var records: [String: RecipientRecord] = [:]
            for (uid, value) in try await preferences { records[uid, default: .empty].preferences = value }
            for (uid, value) in try await mutes { records[uid, default: .empty].mutes = value }
            for (uid, value) in try await tokens { records[uid, default: .empty].tokens = value }
            for (uid, value) in try await unread { records[uid, default: .empty].unread = value }
            return records
        }
    }
}
