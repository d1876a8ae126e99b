import Foundation
import HeraldCore
import HeraldModels
import SQLKit

/// Feed set-up, items, engagements and campaigns.
extension SQLStore: FeedRepository {
    // MARK: Set-up

    public func setupRecords(appId: String, kind: FeedSetupKind, after: String?, limit: Int) async throws -> [FeedSetupRecord] {
        try await lookup { db in
            try await db.raw(
                """
                SELECT * FROM feed_setup WHERE app_id = \(bind: appId) AND kind = \(bind: kind.rawValue) AND id > \(bind: after ?? "")
                ORDER BY id LIMIT \(bind: limit)
                """
            ).rows().map(Self.setupRecord)
        }
    }

    public func setupRecord(appId: String, kind: FeedSetupKind, id: String) async throws -> FeedSetupRecord? {
        try await lookup { db in
            try await db.raw("SELECT * FROM feed_setup WHERE app_id = \(bind: appId) AND kind = \(bind: kind.rawValue) AND id = \(bind: id)")
                .firstRow().map(Self.setupRecord)
        }
    }

    public func putSetupRecord(appId: String, _ record: FeedSetupRecord, create: Bool) async throws {
        let body = try JSONValue.object(record.body).jsonText()
        try await write { db in
            if create {
                let inserted =
                    try await db.raw(
                        """
                        INSERT INTO feed_setup (app_id, kind, id, body, created_at, updated_at)
                        VALUES (\(bind: appId), \(bind: record.kind.rawValue), \(bind: record.id), \(bind: body), \(bind: record.createdAt.ms), \(bind: record.updatedAt.ms))
                        ON CONFLICT DO NOTHING RETURNING id
                        """
                    ).firstRow() != nil
                guard inserted else { throw HeraldError(.conflict, code: "already_exists", "\(record.kind.rawValue) '\(record.id)' already exists") }
            } else {
                let updated =
                    try await db.raw(
                        """
                        UPDATE feed_setup SET body = \(bind: body), updated_at = \(bind: record.updatedAt.ms)
                        WHERE app_id = \(bind: appId) AND kind = \(bind: record.kind.rawValue) AND id = \(bind: record.id) RETURNING id
                        """
                    ).firstRow() != nil
                guard updated else { throw HeraldError.notFound(record.kind.rawValue, record.id) }
            }
        }
    }

    public func deleteSetupRecord(appId: String, kind: FeedSetupKind, id: String) async throws -> Bool {
        try await write { db in
            try await db.raw(
                """
                DELETE FROM feed_setup WHERE app_id = \(bind: appId) AND kind = \(bind: kind.rawValue) AND id = \(bind: id) RETURNING id
                """
            ).firstRow() != nil
        }
    }

    static func setupRecord(_ row: any SQLRow) throws -> FeedSetupRecord {
        guard let kind = FeedSetupKind(rawValue: try row.string("kind")) else { throw HeraldError(.internal, "unknown feed set-up kind") }
        return FeedSetupRecord(
            kind: kind,
            id: try row.string("id"),
            body: try object(try row.string("body")) ?? [:],
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at")
        )
    }

    // MARK: Items

    static let feedItemColumns: [BulkColumn] = [
        .text("app_id"), .text("uid"), .text("id"), .text("campaign_id"), .text("channel_id"), .text("category_id"), .text("category"),
        .text("content"), .text("metadata"), .text("tags"), .text("sender"), .bigint("sent_at"), .text("push_id"), .text("push_title"),
        .text("push_body"),
    ]

    public func insertFeedItems(_ items: [FeedItem], deliveries: [Delivery]) async throws -> Set<String> {
        guard !items.isEmpty else { return [] }
        let rows = try items.map { item in
            [
                BulkValue(item.appId), BulkValue(item.uid), BulkValue(item.id), BulkValue(item.campaignId), BulkValue(item.channelId),
                BulkValue(item.categoryId), BulkValue(item.category), BulkValue(try item.content.jsonText()),
                BulkValue(try JSONValue.object(item.metadata).jsonText()), BulkValue(StoredJSON.text(strings: item.tags)), BulkValue(item.sender),
                BulkValue(item.sentAt.ms), BulkValue(item.pushNotificationId), BulkValue(item.pushTitle), BulkValue(item.pushBody),
            ]
        }
        return try await transaction { db in
            // A (campaign, user) already served by a batch replayed after a crash is skipped.
            let inserted = try await db.insert(into: "feed_items", columns: Self.feedItemColumns, rows: rows, conflict: .ignore, returning: "id")
            let stored = Set(try inserted.map { try $0.string("id") })
            let due = deliveries.filter { stored.contains($0.subject.id) }.map(Self.deliveryRow)
            try await db.insert(into: "deliveries", columns: Self.deliveryColumns, rows: due, conflict: .ignore)
            return stored
        }
    }

    public func feedItems(appId: String, uid: String, query: FeedQuery, before: String?) async throws -> [FeedItem] {
        var sql: SQLQueryString = "SELECT * FROM feed_items WHERE app_id = \(bind: appId) AND uid = \(bind: uid)"
        if let before { sql += " AND id < \(bind: before)" }
        switch query.readState {
        case .read?: sql += " AND read_at IS NOT NULL"
        case .unread?: sql += " AND read_at IS NULL"
        case nil: break
        }
        if let categoryId = query.categoryId {
            sql += " AND category_id = \(bind: categoryId)"
        } else if let category = query.category {
            sql += " AND category = \(bind: category)"
        }
        if let channelId = query.channelId { sql += " AND channel_id = \(bind: channelId)" }
        if !query.tags.isEmpty { sql += " AND (" + Self.anyTag(query.tags) + ")" }
        if let from = query.dateFrom { sql += " AND sent_at >= \(bind: from.ms)" }
        if let to = query.dateTo { sql += " AND sent_at <= \(bind: to.ms)" }
        sql += " ORDER BY id DESC LIMIT \(bind: query.limit)"
        let statement = sql
        return try await lookup { db in try await db.raw(statement).rows().map(Self.feedItem) }
    }

    /// Tags are stored as a JSON array of strings: an item has a tag when its text holds the tag
    /// as a JSON string.
    static func anyTag(_ tags: [String], all: Bool = false) -> SQLQueryString {
        var sql: SQLQueryString = ""
        for (index, tag) in tags.enumerated() {
            let quoted = (try? JSONValue.string(tag).jsonText()) ?? "\"\(tag)\""
            let pattern =
                "%"
                + quoted.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
            if index > 0 { sql += all ? " AND " : " OR " }
            sql += "tags LIKE \(bind: pattern) ESCAPE '\\'"
        }
        return sql
    }

    public func feedItem(appId: String, uid: String, id: String) async throws -> FeedItem? {
        try await lookup { db in
            try await db.raw("SELECT * FROM feed_items WHERE app_id = \(bind: appId) AND uid = \(bind: uid) AND id = \(bind: id)").firstRow().map(
                Self.feedItem
            )
        }
    }

    public func feedItems(appId: String, ids: [String], content: Bool) async throws -> [String: FeedItem] {
        var found: [String: FeedItem] = [:]
        let columns = content ? ["*"] : Self.feedItemColumnsWithoutContent
        for chunk in ids.chunks(of: 1_000) {
            for row in try await lookup({ db in
                try await db.select().columns(columns).from("feed_items").where("id", .in, chunk).where("app_id", .equal, appId).rows()
            }) {
                let item = try Self.feedItem(row, content: content)
                found[item.id] = item
            }
        }
        return found
    }

    /// Every column but the card, metadata and tags (JSON to parse, which a push does not show).
    static let feedItemColumnsWithoutContent = [
        "id", "app_id", "uid", "campaign_id", "channel_id", "category_id", "category", "sender", "sent_at", "read_at", "delivered_at", "push_id",
        "push_title", "push_body", "push_delivered_at", "push_clicked_at",
    ]

    public func unreadFeedCount(appId: String, uid: String, categoryId: String?, category: String?) async throws -> Int {
        var sql: SQLQueryString = "SELECT COUNT(*) AS n FROM feed_items WHERE app_id = \(bind: appId) AND uid = \(bind: uid) AND read_at IS NULL"
        if let categoryId { sql += " AND category_id = \(bind: categoryId)" } else if let category { sql += " AND category = \(bind: category)" }
        let statement = sql
        return try await lookup { db in try await db.raw(statement).firstRow()?.int("n") ?? 0 }
    }

    public func markFeedItem(appId: String, uid: String, id: String, _ mark: FeedMark, at date: Date) async throws -> FeedItem? {
        let column = mark == .read ? "read_at" : "delivered_at"
        return try await write { db in
            // Reading an item also means it was delivered.
            let delivered = mark == .read ? ", delivered_at = COALESCE(delivered_at, \(date.ms))" : ""
            return try await db.raw(
                """
                UPDATE feed_items SET \(unsafeRaw: column) = COALESCE(\(unsafeRaw: column), \(bind: date.ms))\(unsafeRaw: delivered)
                WHERE app_id = \(bind: appId) AND uid = \(bind: uid) AND id = \(bind: id) RETURNING *
                """
            ).firstRow().map(Self.feedItem)
        }
    }

    public func engage(appId: String, uid: String, itemId: String, interaction: String, campaignId: String?, at date: Date) async throws -> Bool {
        try await write { db in
            try await db.raw(
                """
                INSERT INTO feed_engagements (app_id, item_id, interaction, uid, campaign_id, created_at)
                VALUES (\(bind: appId), \(bind: itemId), \(bind: interaction), \(bind: uid), \(bind: campaignId), \(bind: date.ms))
                ON CONFLICT DO NOTHING RETURNING item_id
                """
            ).firstRow() != nil
        }
    }

    public func markPush(appId: String, uid: String, pushNotificationId: String, clicked: Bool, at date: Date) async throws -> FeedItem? {
        // A click means the push arrived, whether or not the extension said so.
        let clickedSet = clicked ? ", push_clicked_at = COALESCE(push_clicked_at, \(date.ms))" : ""
        return try await write { db in
            try await db.raw(
                """
                UPDATE feed_items SET push_delivered_at = COALESCE(push_delivered_at, \(bind: date.ms))\(unsafeRaw: clickedSet)
                WHERE push_id = \(bind: pushNotificationId) AND app_id = \(bind: appId) AND uid = \(bind: uid) RETURNING *
                """
            ).firstRow().map(Self.feedItem)
        }
    }

    static func feedItem(_ row: any SQLRow) throws -> FeedItem {
        try feedItem(row, content: true)
    }

    static func feedItem(_ row: any SQLRow, content: Bool) throws -> FeedItem {
        FeedItem(
            id: try row.string("id"),
            appId: try row.string("app_id"),
            uid: try row.string("uid"),
            campaignId: try row.optionalString("campaign_id"),
            channelId: try row.optionalString("channel_id"),
            categoryId: try row.optionalString("category_id"),
            category: try row.optionalString("category"),
            content: content ? try JSONValue(jsonText: try row.string("content")) : .null,
            metadata: content ? try object(try row.string("metadata")) ?? [:] : [:],
            tags: content ? try StoredJSON.strings(from: try row.string("tags")) : [],
            sender: try row.string("sender"),
            sentAt: try row.date("sent_at"),
            readAt: try row.optionalDate("read_at"),
            deliveredAt: try row.optionalDate("delivered_at"),
            pushNotificationId: try row.optionalString("push_id"),
            pushTitle: try row.optionalString("push_title"),
            pushBody: try row.optionalString("push_body"),
            pushDeliveredAt: try row.optionalDate("push_delivered_at"),
            pushClickedAt: try row.optionalDate("push_clicked_at")
        )
    }
}
