import Foundation
import HeraldCore
import HeraldModels
import SQLKit

/// The outbox and the delivery log.
extension SQLStore: DeliveryRepository {
    static let deliveryColumns: [BulkColumn] = [
        .text("id"), .text("app_id"), .text("event_id"), .text("subject"), .text("uid"), .text("channel"), .text("target"), .text("session_id"),
        .text("provider_id"), .text("platform"), .text("route"), .text("locale"), .integer("badge"), .integer("unread"), .text("status"),
        .text("reason"), .integer("attempts"), .bigint("next_attempt_at"), .bigint("lease_until"), .bigint("expires_at"),
        .integer("provider_status"), .text("provider_message_id"), .bigint("created_at"), .bigint("updated_at"),
        .text("style"), .text("lease_owner"),
    ]

    /// The columns of `deliveries_once`: one delivery of an event to a recipient's target.
    static let deliveryOnce = ["event_id", "uid", "target"]

    static func deliveryRow(_ d: Delivery) -> [BulkValue] {
        [
            BulkValue(d.id), BulkValue(d.appId), BulkValue(d.subject.id), BulkValue(d.subject.kind.rawValue), BulkValue(d.uid),
            BulkValue(d.channel.rawValue), BulkValue(targetText(d.target)), BulkValue(d.sessionId), BulkValue(d.providerId),
            BulkValue(d.platform?.rawValue), BulkValue(d.route?.rawValue), BulkValue(d.locale), BulkValue(d.badge), BulkValue(d.unread),
            BulkValue(d.status.rawValue), BulkValue(d.reason), BulkValue(d.attempts), BulkValue(d.nextAttemptAt?.ms), BulkValue(d.leaseUntil?.ms),
            BulkValue(d.expiresAt?.ms), BulkValue(d.providerStatus), BulkValue(d.providerMessageId), BulkValue(d.createdAt.ms),
            BulkValue(d.updatedAt.ms), BulkValue(d.style.storedText), BulkValue(d.leaseOwner),
        ]
    }

    /// The `target` column: the token, `webhook:<providerId>`, `inapp` or `-`.
    static func targetText(_ target: DeliveryTarget) -> String {
        switch target {
        case .token(let token): token
        case .webhook(let providerId): "webhook:" + providerId
        case .inApp: "inapp"
        case .none: "-"
        }
    }

    /// The target a row's `channel` and `target` columns say.
    static func target(channel: String, text: String, providerId: String?) throws -> DeliveryTarget {
        switch DeliveryChannel(rawValue: channel) {
        case .push: .token(text)
        case .webhook: .webhook(providerId: providerId ?? String(text.dropFirst("webhook:".count)))
        case .inapp: .inApp
        case .none?: DeliveryTarget.none
        case nil: throw HeraldError(.internal, "a stored delivery has the unknown channel '\(channel)'")
        }
    }

    /// Claims pushes due for a retry, then pushes whose sender's lease ran out (its process died
    /// before recording them), each through its own partial index, read in its order up to the
    /// limit (``claimTransaction(_:)``).
    public func claimDeliveries(limit: Int, now: Date, claim: Claim) async throws -> [Delivery] {
        try await claimTransaction { db in
            let due = try await db.raw(
                """
                UPDATE deliveries SET status = 'sending', lease_until = \(bind: claim.until.ms), lease_owner = \(bind: claim.owner)
                WHERE id IN (
                    SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= \(bind: now.ms)
                    ORDER BY next_attempt_at LIMIT \(bind: limit)\(unsafeRaw: self.skipLocked))
                RETURNING *
                """
            ).rows().map(Self.delivery)
            guard due.count < limit else { return due }
            let abandoned = try await db.raw(
                """
                UPDATE deliveries SET lease_until = \(bind: claim.until.ms), lease_owner = \(bind: claim.owner)
                WHERE id IN (
                    SELECT id FROM deliveries WHERE status = 'sending' AND lease_until < \(bind: now.ms)
                    ORDER BY lease_until LIMIT \(bind: limit - due.count)\(unsafeRaw: self.skipLocked))
                RETURNING *
                """
            ).rows().map(Self.delivery)
            return due + abandoned
        }
    }

    public func updateDeliveries(_ updates: [DeliveryUpdate]) async throws {
        guard !updates.isEmpty else { return }
        let rows = updates.map { update in
            [
                BulkValue(update.id), BulkValue(update.status.rawValue), BulkValue(update.reason), BulkValue(update.attempts),
                BulkValue(update.nextAttemptAt?.ms), BulkValue(update.providerStatus), BulkValue(update.providerMessageId), BulkValue(update.at.ms),
            ]
        }
        try await transaction { db in
            try await db.update("deliveries", key: .text("id"), set: Self.outcomeColumns, rows: rows)
        }
    }

    /// What an attempt's outcome sets; the lease ends, and the provider's status and message
    /// id stay when the new outcome has none.
    static let outcomeColumns: [(BulkColumn, String)] = [
        (.text("status"), "$new"), (.text("reason"), "$new"), (.integer("attempts"), "$new"), (.bigint("next_attempt_at"), "$new"),
        (.integer("provider_status"), "COALESCE($new, deliveries.provider_status)"),
        (.text("provider_message_id"), "COALESCE($new, deliveries.provider_message_id)"), (.bigint("updated_at"), "$new"),
        (.bigint("lease_until"), "NULL"),
    ]

    public func deliveries(appId: String, filter: DeliveryFilter, after cursor: String?, limit: Int) async throws -> [Delivery] {
        let position = try cursor.map(Self.deliveryCursor)
        if let uid = filter.uid, deliveriesByUserCopied {
            return try await deliveries(appId: appId, uid: uid, filter: filter, after: position, limit: limit)
        }
        var query: SQLQueryString = "SELECT * FROM deliveries d WHERE d.app_id = \(bind: appId)"
        if let uid = filter.uid { query += " AND d.uid = \(bind: uid)" }
        query += Self.matching(filter, after: position, time: "d.created_at", id: "d.id")
        query += " ORDER BY d.created_at DESC, d.id DESC LIMIT \(bind: limit)"
        return try await lookup { [query] db in try await db.raw(query).rows().map(Self.delivery) }
    }

    /// A user's deliveries on SQLite: those copied into `delivery_users` and those stored since
    /// (``DeliveryUserIndex``), read in one statement so that each is found once, newest first.
    private func deliveries(
        appId: String,
        uid: String,
        filter: DeliveryFilter,
        after position: (Int64, String)?,
        limit: Int
    ) async throws -> [Delivery] {
        let query: SQLQueryString = """
            SELECT * FROM (
                SELECT d.* FROM delivery_users u JOIN deliveries d ON d.id = u.delivery_id
                WHERE u.app_id = \(bind: appId) AND u.uid = \(bind: uid)\(Self.matching(filter, after: position, time: "u.created_at", id: "u.delivery_id"))
                ORDER BY u.created_at DESC, u.delivery_id DESC LIMIT \(bind: limit))
            UNION ALL
            SELECT * FROM (
                SELECT d.* FROM deliveries d NOT INDEXED
                WHERE d.rowid > (SELECT through FROM delivery_users_indexed) AND d.app_id = \(bind: appId) AND d.uid = \(bind: uid)\(Self.matching(filter, after: position, time: "d.created_at", id: "d.id")))
            """
        let found = try await lookup { db in try await db.raw(query).rows().map(Self.delivery) }
        var seen = Set<String>()
        let newestFirst = found.filter { seen.insert($0.id).inserted }.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
        return Array(newestFirst.prefix(limit))
    }

    /// A delivery filter's conditions other than the user (on the deliveries aliased `d`), and the
    /// position after a cursor in the log, newest first (on `time` and `id`, the columns that
    /// order the rows read).
    private static func matching(_ filter: DeliveryFilter, after position: (Int64, String)?, time: String, id: String) -> SQLQueryString {
        var sql: SQLQueryString = ""
        if let eventId = filter.eventId { sql += " AND d.event_id = \(bind: eventId)" }
        if let status = filter.status { sql += " AND d.status = \(bind: status.rawValue)" }
        if let since = filter.since { sql += " AND \(unsafeRaw: time) >= \(bind: since.ms)" }
        if let (createdAt, last) = position {
            sql += " AND (\(unsafeRaw: time) < \(bind: createdAt)"
            sql += " OR (\(unsafeRaw: time) = \(bind: createdAt) AND \(unsafeRaw: id) < \(bind: last)))"
        }
        return sql
    }

    public func deliveryCounts(appId: String, eventId: String) async throws -> [DeliveryStatus: Int] {
        try await lookup { db in
            var counts: [DeliveryStatus: Int] = [:]
            for row in try await db.raw(
                """
                SELECT status, COUNT(*) AS n FROM deliveries WHERE app_id = \(bind: appId) AND event_id = \(bind: eventId) GROUP BY status
                """
            ).rows() {
                if let status = DeliveryStatus(rawValue: try row.string("status")) { counts[status] = try row.int("n") }
            }
            return counts
        }
    }

    public func outboxDepth() async throws -> Int {
        try await lookup { db in
            try await db.raw(
                """
                SELECT (SELECT COUNT(*) FROM deliveries WHERE status = 'pending') + (SELECT COUNT(*) FROM deliveries WHERE status = 'sending') AS n
                """
            ).firstRow()?.int("n") ?? 0
        }
    }

    public func outboxDepthByApp() async throws -> [String: Int] {
        let sql = Self.outboxDepthByAppSQL(dialect)
        return try await lookup { db in
            var depth: [String: Int] = [:]
            for row in try await db.raw(SQLQueryString(sql)).rows() {
                depth[try row.string("app_id"), default: 0] += try row.int("n")
            }
            return depth
        }
    }

    /// The open deliveries counted by app: one count per status, each through its status's
    /// partial index (an IN list would read every delivery ever made). Left to itself, SQLite's
    /// planner reads every delivery ever made through `deliveries_by_app`, to have them grouped
    /// in order without sorting: 58 ms with 200,000 deliveries, run every 5 s for the outbox
    /// gauges, growing with the log. `INDEXED BY` holds it to the partial indexes (and fails
    /// should one be renamed); PostgreSQL's planner takes them by itself.
    static func outboxDepthByAppSQL(_ dialect: Dialect) -> String {
        let (due, leased) = dialect == .sqlite ? (" INDEXED BY deliveries_due", " INDEXED BY deliveries_leased") : ("", "")
        return """
            SELECT app_id, COUNT(*) AS n FROM deliveries\(due) WHERE status = 'pending' GROUP BY app_id
            UNION ALL SELECT app_id, COUNT(*) AS n FROM deliveries\(leased) WHERE status = 'sending' GROUP BY app_id
            """
    }

    public func deliveryStats(appId: String, since: Date, now: Date, bucketSeconds: Int) async throws -> DeliveryStats {
        let bucketMs = Int64(max(1, bucketSeconds)) * 1_000
        let first = since.ms / bucketMs
        let (counts, reasons, receipts) = try await lookup { db in
            let counts = try await db.raw(
                """
                SELECT created_at / \(unsafeRaw: String(bucketMs)) AS bucket, status, COALESCE(provider_id, '-') AS provider, COUNT(*) AS n
                FROM deliveries WHERE app_id = \(bind: appId) AND created_at >= \(bind: first * bucketMs)
                GROUP BY bucket, status, provider
                """
            ).rows()
            let reasons = try await db.raw(
                """
                SELECT status, COALESCE(reason, '') AS reason, COUNT(*) AS n FROM deliveries
                WHERE app_id = \(bind: appId) AND created_at >= \(bind: first * bucketMs) AND status IN ('failed', 'skipped', 'expired')
                GROUP BY status, reason ORDER BY n DESC, reason LIMIT 10
                """
            ).rows()
            let receipts = try await db.raw(
                """
                SELECT COUNT(received_at) AS received, COUNT(opened_at) AS opened FROM deliveries
                WHERE app_id = \(bind: appId) AND created_at >= \(bind: first * bucketMs)
                """
            ).firstRow()
            return (counts, reasons, receipts)
        }
        let last = now.ms / bucketMs
        var buckets = (first...max(first, last)).map {
            DeliveryStats.Bucket(start: Date(millisecondsSince1970: $0 * bucketMs), counts: [:])
        }
        var byProvider: [String: [DeliveryStatus: Int]] = [:]
        for row in counts {
            guard let status = DeliveryStatus(rawValue: try row.string("status")) else { continue }
            let n = try row.int("n")
            let index = Int(Int64(try row.int("bucket")) - first)
            if buckets.indices.contains(index) { buckets[index].counts[status, default: 0] += n }
            byProvider[try row.string("provider"), default: [:]][status, default: 0] += n
        }
        let top = try reasons.compactMap { row -> DeliveryStats.Reason? in
            guard let status = DeliveryStatus(rawValue: try row.string("status")) else { return nil }
            return DeliveryStats.Reason(status: status, reason: try row.string("reason"), count: try row.int("n"))
        }
        var stats = DeliveryStats(since: buckets[0].start, bucketSeconds: bucketSeconds, buckets: buckets, byProvider: byProvider, topReasons: top)
        stats.received = try receipts?.int("received") ?? 0
        stats.opened = try receipts?.int("opened") ?? 0
        return stats
    }

    public func nextDueTime() async throws -> Date? {
        try await lookup { db in
            let row = try await db.raw(
                """
                SELECT MIN(next_attempt_at) AS due FROM deliveries WHERE status = 'pending'
                UNION ALL SELECT MIN(lease_until) AS due FROM deliveries WHERE status = 'sending'
                """
            ).rows()
            return try row.compactMap { try $0.optionalDate("due") }.min()
        }
    }

    public func purge(appId: String, before: Date) async throws -> Int {
        let indexed = deliveriesByUserCopied
        return try await transaction { db in
            try await db.raw(
                "DELETE FROM deliveries WHERE app_id = \(bind: appId) AND created_at < \(bind: before.ms) AND status NOT IN ('pending', 'sending')"
            ).perform()
            if indexed { try await DeliveryUserIndex.forget(appId: appId, before: before.ms, db: db) }
            return try await db.raw(
                """
                DELETE FROM events WHERE app_id = \(bind: appId) AND received_at < \(bind: before.ms) AND status = 'done' RETURNING id
                """
            ).rows().count
        }
    }

    /// The cursor after a delivery in the log: its time and id.
    public static func deliveryCursor(after delivery: Delivery) -> String {
        Cursor.encode("\(delivery.createdAt.ms)|\(delivery.id)")
    }

    static func deliveryCursor(_ cursor: String) throws -> (Int64, String) {
        let key = try Cursor.decode(cursor)
        let parts = key.split(separator: "|", maxSplits: 1)
        guard parts.count == 2, let createdAt = Int64(parts[0]) else { throw HeraldError.invalidField("cursor", "is not a cursor this API returned") }
        return (createdAt, String(parts[1]))
    }

    static func delivery(_ row: any SQLRow) throws -> Delivery {
        let statusText = try row.string("status")
        let subjectText = try row.string("subject")
        guard let status = DeliveryStatus(rawValue: statusText), let subject = DeliverySubject.Kind(rawValue: subjectText) else {
            throw HeraldError(.internal, "a stored delivery has the unknown status '\(statusText)' or subject '\(subjectText)'")
        }
        let providerId = try row.optionalString("provider_id")
        return Delivery(
            id: try row.string("id"),
            appId: try row.string("app_id"),
            subject: DeliverySubject(kind: subject, id: try row.string("event_id")),
            uid: try row.string("uid"),
            target: try target(channel: try row.string("channel"), text: try row.string("target"), providerId: providerId),
            sessionId: try row.optionalString("session_id"),
            providerId: providerId,
            platform: try row.optionalString("platform").flatMap(PushPlatform.init(rawValue:)),
            route: try row.optionalString("route").flatMap(PushRoute.init(rawValue:)),
            style: PushStyle(storedText: try row.optionalString("style")),
            locale: try row.optionalString("locale"),
            badge: try row.optionalInt("badge"),
            unread: try row.optionalInt("unread"),
            status: status,
            reason: try row.optionalString("reason"),
            attempts: try row.int("attempts"),
            nextAttemptAt: try row.optionalDate("next_attempt_at"),
            leaseUntil: try row.optionalDate("lease_until"),
            leaseOwner: try row.optionalString("lease_owner"),
            expiresAt: try row.optionalDate("expires_at"),
            providerStatus: try row.optionalInt("provider_status"),
            providerMessageId: try row.optionalString("provider_message_id"),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"),
            receivedAt: try row.optionalDate("received_at"),
            openedAt: try row.optionalDate("opened_at")
        )
    }

    public func recordReceipts(appId: String, uid: String, _ receipts: [DeviceReceipt]) async throws -> Int {
        guard !receipts.isEmpty else { return 0 }
        return try await transaction { db in
            var changed = 0
            for receipt in receipts {
                guard let messageId = receipt.messageId else { continue }
                let opened = receipt.kind == .opened ? receipt.at.ms : nil
                let rows = try await db.raw(
                    """
                    UPDATE deliveries SET received_at = COALESCE(received_at, \(bind: receipt.at.ms)),
                        opened_at = COALESCE(opened_at, \(bind: opened))
                    WHERE id IN (
                        SELECT d.id FROM events e JOIN deliveries d ON d.event_id = e.id AND d.uid = \(bind: uid) AND d.channel = 'push'
                        WHERE e.app_id = \(bind: appId) AND e.message_id = \(bind: messageId))
                      AND (received_at IS NULL OR (opened_at IS NULL AND \(bind: receipt.kind == .opened)))
                    RETURNING id
                    """
                ).rows()
                if !rows.isEmpty { changed += 1 }
            }
            return changed
        }
    }

    public func receiptCounts(appId: String, eventId: String) async throws -> (received: Int, opened: Int) {
        try await lookup { db in
            let row = try await db.raw(
                """
                SELECT COUNT(received_at) AS received, COUNT(opened_at) AS opened FROM deliveries
                WHERE app_id = \(bind: appId) AND event_id = \(bind: eventId)
                """
            ).firstRow()
            return (try row?.int("received") ?? 0, try row?.int("opened") ?? 0)
        }
    }
}
