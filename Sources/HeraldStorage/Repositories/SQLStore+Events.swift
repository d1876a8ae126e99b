import Foundation
import HeraldCore
import HeraldModels
import SQLKit

/// Events and their fan-out, with work claims that several processes share (PostgreSQL:
/// `FOR UPDATE SKIP LOCKED`; SQLite: one writer at a time).
extension SQLStore: EventRepository {
    /// Rows per multi-row statement: well under both databases' bind limits.
    static let rowChunk = 400

    static let eventColumns: [BulkColumn] = [
        .text("id"), .text("app_id"), .text("client_id"), .text("type"), .text("body"), .bigint("received_at"), .text("status"),
        .bigint("lease_until"),
        .text("lease_owner"), .text("trace_parent"), .text("message_id"),
    ]

    public func insertEvents(_ events: [ChatEvent], claim: Claim?) async throws -> [String] {
        let (plain, keyed, ids, clientIds, posted) = try Self.eventRows(events, claim: claim)
        let appId = events.first?.appId
        // Only a client id can clash (an event's id is new): rows without one go in without
        // `ON CONFLICT`, which PostgreSQL pays for on every row (a speculative insert, the unique
        // indexes checked first: ~7.6 against ~9.3 µs a row measured alone, 200,000 events).
        return try await transaction { db in
            try await db.insert(into: "events", columns: Self.eventColumns, rows: plain, conflict: .fail)
            try await db.insert(into: "events", columns: Self.eventColumns, rows: keyed, conflict: .ignore)
            // A client id already used keeps its first event, when it is the same event: posted
            // again with another body, the whole post is refused (and rolled back).
            var byClientId: [String: String] = [:]
            let usedClientIds = clientIds.compactMap { $0 }
            if let appId, !usedClientIds.isEmpty {
                for chunk in usedClientIds.chunks(of: Self.rowChunk) {
                    for row in try await db.select().columns("id", "client_id", "body").from("events")
                        .where("app_id", .equal, appId).where("client_id", .in, chunk).rows()
                    {
                        let clientId = try row.string("client_id")
                        let id = try row.string("id")
                        if let event = posted[clientId], event.id != id, let body = event.body,
                            (try? JSONValue(jsonText: try row.string("body"))) != body
                        {
                            throw EventIdConflict(clientId: clientId, eventId: id)
                        }
                        byClientId[clientId] = id
                    }
                }
            }
            return zip(ids, clientIds).map { id, clientId in clientId.flatMap { byClientId[$0] } ?? id }
        }
    }

    /// What storing the events takes, read from them by index (the events, large values, are
    /// not copied into the transaction's closure): their rows (those without a client id and those
    /// with one, each in the order posted), ids and client ids, and each client id's first event as
    /// posted.
    private static func eventRows(
        _ events: [ChatEvent],
        claim: Claim?
    ) throws -> (plain: [[BulkValue]], keyed: [[BulkValue]], ids: [String], clientIds: [String?], posted: [String: (id: String, body: JSONValue?)]) {
        let status = claim == nil ? StoredEvent.Status.pending : .fanningOut
        var plain: [[BulkValue]] = []
        var keyed: [[BulkValue]] = []
        var ids: [String] = []
        var clientIds: [String?] = []
        var posted: [String: (id: String, body: JSONValue?)] = [:]
        plain.reserveCapacity(events.count)
        ids.reserveCapacity(events.count)
        clientIds.reserveCapacity(events.count)
        for index in events.indices {
            let id = events[index].id
            let clientId = events[index].clientId
            let row = [
                BulkValue(id), BulkValue(events[index].appId), BulkValue(clientId), BulkValue(events[index].kind.rawValue),
                BulkValue(try events[index].posted.map { String(decoding: $0.jsonBytes(), as: UTF8.self) } ?? StoredJSON.text(events[index].body)),
                BulkValue(events[index].receivedAt.ms), BulkValue(status.rawValue), BulkValue(claim?.until.ms), BulkValue(claim?.owner),
                BulkValue(events[index].traceParent), BulkValue(events[index].messageId),
            ]
            if clientId == nil { plain.append(row) } else { keyed.append(row) }
            ids.append(id)
            clientIds.append(clientId)
            if let clientId, posted[clientId] == nil { posted[clientId] = (id, events[index].posted) }
        }
        return (plain, keyed, ids, clientIds, posted)
    }

    public func alertedRecipients(appId: String, messageId: String, excluding eventId: String, uids: [String]) async throws -> Set<String> {
        guard !uids.isEmpty else { return [] }
        return try await lookup { db in
            var alerted = Set<String>()
            for chunk in uids.chunks(of: Self.rowChunk) {
                let rows = try await db.raw(
                    """
                    SELECT DISTINCT d.uid FROM events e JOIN deliveries d ON d.event_id = e.id
                    WHERE e.app_id = \(bind: appId) AND e.message_id = \(bind: messageId) AND e.id <> \(bind: eventId)
                      AND d.channel = 'push' AND d.route = 'alert' AND d.status IN ('delivered', 'sending', 'pending')
                      AND d.uid IN (\(binds: chunk))
                    """
                ).rows()
                for row in rows { alerted.insert(try row.string("uid")) }
            }
            return alerted
        }
    }

    public func storedEvent(appId: String, id: String) async throws -> StoredEvent? {
        try await lookup { db in
            try await db.raw("SELECT * FROM events WHERE id = \(bind: id) AND app_id = \(bind: appId)").firstRow().map(Self.storedEvent)
        }
    }

    public func claimEvents(limit: Int, now: Date, claim: Claim) async throws -> [StoredEvent] {
        // One statement; the rows are parsed after the connection is free. Events whose lease
        // ran out first, then pending ones by age: each found through an index of its own status
        // (migration 18), read in its order up to the limit (``claimTransaction(_:)``).
        let rows = try await claimTransaction { db in
            try await db.raw(
                """
                WITH expired AS (
                    SELECT id FROM events WHERE status = 'fanning_out' AND lease_until < \(bind: now.ms)
                    ORDER BY lease_until LIMIT \(bind: limit)\(unsafeRaw: self.skipLocked)),
                pending AS (
                    SELECT id FROM events WHERE status = 'pending'
                    ORDER BY received_at LIMIT \(bind: limit)\(unsafeRaw: self.skipLocked))
                UPDATE events SET status = 'fanning_out', lease_until = \(bind: claim.until.ms), lease_owner = \(bind: claim.owner)
                WHERE id IN (SELECT id FROM expired UNION ALL SELECT id FROM pending LIMIT \(bind: limit))
                RETURNING *
                """
            ).rows()
        }
        return try rows.map(Self.storedEvent).sorted { $0.event.receivedAt < $1.event.receivedAt }
    }

    public func commitFanOut(_ steps: [FanOutStep], at date: Date) async throws -> Set<String> {
        let (recorded, moved) = try await transaction { db -> (Set<String>, [(String, UnreadKey, Int)]) in
            var moved: [(String, UnreadKey, Int)] = []
            // First where each event goes, only from where its step began: a step whose event was
            // taken over and moved on by another worker records nothing.
            var recorded = Set<String>(minimumCapacity: steps.count)
            // Finished events, in one statement per (recipient count, starting cursor): mostly one.
            // (The steps are read in place, by index: a `for step in steps` copies every step, its
            // deliveries and all, to look at a field or two.)
            var finished: [StepStart: [String]] = [:]
            for index in steps.indices where steps[index].done {
                let start = StepStart(recipients: steps[index].recipients, fromCursor: steps[index].fromCursor, reason: steps[index].reason)
                finished[start, default: []].append(steps[index].eventId)
            }
            for (start, ids) in finished {
                for chunk in (self.locksRowsInOrder ? ids.sorted() : ids).chunks(of: Self.rowChunk) {
                    let rows = try await db.update("events")
                        .set("status", to: StoredEvent.Status.done.rawValue).set("lease_until", to: SQLLiteral.null)
                        .set("finished_at", to: date.ms).set("cursor", to: SQLLiteral.null)
                        .set("recipients", to: SQLRaw("recipients + \(start.recipients)")).set("reason", to: start.reason?.rawValue)
                        .where(self.oneOf("id", chunk)).where("status", .notEqual, StoredEvent.Status.done.rawValue)
                        .where(Self.cursorIs(start.fromCursor))
                        .returning("id").rows()
                    for row in rows { recorded.insert(try row.string("id")) }
                }
            }
            // Events with pages to go stay claimed, with a fresh lease, by the worker that goes on.
            for index in steps.indices where !steps[index].done {
                let step = steps[index]
                let rows = try await db.update("events")
                    .set("status", to: StoredEvent.Status.fanningOut.rawValue).set("lease_until", to: step.leaseUntil.ms)
                    .set("cursor", to: step.cursor).set("recipients", to: SQLRaw("recipients + \(step.recipients)"))
                    .where("id", .equal, step.eventId).where("status", .notEqual, StoredEvent.Status.done.rawValue)
                    .where(Self.cursorIs(step.fromCursor))
                    .returning("id").rows()
                for row in rows { recorded.insert(try row.string("id")) }
            }
            let kept = recorded.count == steps.count ? steps : steps.filter { recorded.contains($0.eventId) }
            // A recipient's delivery of an event already stored (`deliveries_once`) is kept; the
            // ids are new (`dlv_`, time-ordered with a random part), so that is the only clash
            // to look for before each row (unnamed, PostgreSQL checked the primary key too: the
            // insert took ~38 µs a row in a 1:1 run, ~34 µs named). On PostgreSQL the rows that
            // cannot clash go in without `ON CONFLICT` (``newDeliveries(_:)``).
            let (new, maybeStored) =
                self.dialect == .postgres
                ? Self.newDeliveries(kept) : ([], kept.indices.flatMap { kept[$0].deliveries.lazy.map(Self.deliveryRow) })
            try await db.insert(into: "deliveries", columns: Self.deliveryColumns, rows: new, conflict: .fail)
            try await db.insert(
                into: "deliveries",
                columns: Self.deliveryColumns,
                rows: maybeStored,
                conflict: .ignoreDuplicate(of: Self.deliveryOnce)
            )
            try await Self.applyWindowChanges(kept.indices.flatMap { kept[$0].windowChanges }, db: db)
            var incremented = 0
            for index in kept.indices { incremented += kept[index].unreadIncrements.count }
            var increments: [UnreadCount: Int] = [:]
            increments.reserveCapacity(incremented)
            for index in kept.indices {
                for key in kept[index].unreadIncrements { increments[UnreadCount(appId: kept[index].appId, key: key), default: 0] += 1 }
            }
            // In key order on PostgreSQL: two batches counting messages to the same conversation
            // lock its row in the same order, never each waiting for the other.
            var ordered = Array(increments)
            if self.locksRowsInOrder {
                ordered.sort {
                    ($0.key.appId, $0.key.key.uid, $0.key.key.conversationId) < ($1.key.appId, $1.key.key.uid, $1.key.key.conversationId)
                }
            }
            let counts = ordered.map {
                [
                    BulkValue($0.key.appId), BulkValue($0.key.key.uid), BulkValue($0.key.key.conversationId), BulkValue($0.value),
                    BulkValue(date.ms),
                ]
            }
            try await db.insert(
                into: "unread_counts",
                columns: Self.unreadColumns,
                rows: counts,
                conflict: .update(
                    keys: ["app_id", "uid", "conversation_id"],
                    set: "count = unread_counts.count + excluded.count, updated_at = excluded.updated_at"
                )
            )
            // Cached counts move with the committed ones (below, once the transaction is over).
            moved = increments.map { ($0.key.appId, $0.key.key, $0.value) }
            for index in kept.indices where !kept[index].unreadResets.isEmpty {
                let step = kept[index]
                moved += step.unreadResets.map { (step.appId, $0, 0) }
                for key in step.unreadResets {
                    try await db.raw(
                        """
                        DELETE FROM unread_counts WHERE app_id = \(bind: step.appId) AND uid = \(bind: key.uid) AND conversation_id = \(bind: key.conversationId)
                        """
                    ).perform()
                }
            }
            return (recorded, moved)
        }
        await unreadMoved(moved)
        return recorded
    }

    /// Cached unread counts after a commit: increments added (count > 0), reads reset (0); the
    /// other processes drop theirs.
    private func unreadMoved(_ moved: [(appId: String, key: UnreadKey, delta: Int)]) async {
        guard !moved.isEmpty else { return }
        cache.records.update(moved.map { StoreCache.UserKey(appId: $0.appId, uid: $0.key.uid) }) { position, record in
            let (_, key, delta) = moved[position]
            if delta == 0 { record.unread[key.conversationId] = nil } else { record.unread[key.conversationId, default: 0] += delta }
        }
        // Grouped only for other processes to hear (one process on SQLite has none to tell): the
        // users named, in notices that fit, all in one round trip.
        guard let cacheBus else { return }
        await cacheBus.publishUnconfirmed(
            Dictionary(grouping: moved, by: \.appId).map { appId, changes in .unread(appId: appId, uids: Array(Set(changes.map(\.key.uid)))) }
        )
    }

    /// The leases that end soon are found first, through `events_leased` (a process may hold
    /// 100,000 events, few of them for long), and only those held are written. On PostgreSQL an
    /// event a fan-out commit holds is skipped (it is being finished): renewing every held event in
    /// one statement while a commit updated some of them, each locking rows in its own order, was
    /// a deadlock that failed the commit's batch.
    public func renewEventLeases(ids: Set<String>, until: Date, endingBefore: Date) async throws {
        guard !ids.isEmpty else { return }
        let ending = try await lookup { db in
            try await db.raw("SELECT id FROM events WHERE status = 'fanning_out' AND lease_until < \(bind: endingBefore.ms)").rows()
        }
        let due = try ending.map { try $0.string("id") }.filter(ids.contains)
        let lockInOrder = locksRowsInOrder ? " ORDER BY id" + skipLocked : ""
        for chunk in (locksRowsInOrder ? due.sorted() : due).chunks(of: Self.rowChunk) {
            try await write { db in
                try await db.raw(
                    """
                    UPDATE events SET lease_until = \(bind: until.ms)
                    WHERE id IN (
                        SELECT id FROM events WHERE id IN (\(binds: chunk)) AND status = 'fanning_out' AND lease_until < \(bind: endingBefore.ms)\(unsafeRaw: lockInOrder))
                    """
                ).perform()
            }
        }
    }

    /// Recorded steps' delivery rows: those that cannot meet a delivery stored before, and the
    /// others. A step that began its event (`fromCursor` nil) and was recorded in this commit is
    /// its event's first page recorded (a recorded page moves the cursor on or finishes the event,
    /// and only a commit that records a page stores deliveries), so no delivery of that event is
    /// stored yet; its rows are new but for a recipient and target named twice in the step, whose
    /// second row goes with the others. PostgreSQL pays for `ON CONFLICT` on every row (a
    /// speculative insert): 200,000 delivery rows alone, ~9.3 µs a row plain, ~11.3 with it.
    static func newDeliveries(_ steps: [FanOutStep]) -> (new: [[BulkValue]], maybeStored: [[BulkValue]]) {
        var new: [[BulkValue]] = []
        var maybeStored: [[BulkValue]] = []
        for index in steps.indices {
            let deliveries = steps[index].deliveries
            guard steps[index].fromCursor == nil else {
                maybeStored += deliveries.map(Self.deliveryRow)
                continue
            }
            var named = Set<DeliveryOnce>()
            for delivery in deliveries {
                let first = deliveries.count == 1 || named.insert(DeliveryOnce(uid: delivery.uid, target: targetText(delivery.target))).inserted
                if first { new.append(Self.deliveryRow(delivery)) } else { maybeStored.append(Self.deliveryRow(delivery)) }
            }
        }
        return (new, maybeStored)
    }

    /// A delivery's key among its event's (`deliveries_once`).
    private struct DeliveryOnce: Hashable {
        var uid: String
        var target: String
    }

    static let unreadColumns: [BulkColumn] = [.text("app_id"), .text("uid"), .text("conversation_id"), .integer("count"), .bigint("updated_at")]

    /// One user's unread count in one conversation of one app.
    private struct UnreadCount: Hashable {
        var appId: String
        var key: UnreadKey
    }

    /// Steps that finish alike, recorded in one statement.
    private struct StepStart: Hashable {
        var recipients: Int
        var fromCursor: String?
        var reason: NobodyReason?
    }

    /// `cursor` is this value (NULL included).
    private static func cursorIs(_ cursor: String?) -> any SQLExpression {
        guard let cursor else { return SQLBinaryExpression(SQLIdentifier("cursor"), .is, SQLLiteral.null) }
        return SQLBinaryExpression(SQLIdentifier("cursor"), .equal, SQLBind(cursor))
    }

    public func events(appId: String, before: Date?, limit: Int) async throws -> [StoredEvent] {
        try await lookup { db in
            var query = db.select().column("*").from("events").where("app_id", .equal, appId)
            if let before { query = query.where("received_at", .lessThan, before.ms) }
            return try await query.orderBy("received_at", .descending).orderBy("id", .descending).limit(limit).rows().map(Self.storedEvent)
        }
    }

    public func pendingEventCount() async throws -> Int {
        try await lookup { db in
            try await db.raw(
                "SELECT (SELECT COUNT(*) FROM events WHERE status = 'pending') + (SELECT COUNT(*) FROM events WHERE status = 'fanning_out') AS n"
            ).firstRow()?.int("n") ?? 0
        }
    }

    static func storedEvent(_ row: any SQLRow) throws -> StoredEvent {
        let event = try ChatEvent.stored(
            id: try row.string("id"),
            appId: try row.string("app_id"),
            clientId: try row.optionalString("client_id"),
            receivedAt: try row.date("received_at"),
            text: try row.string("body"),
            traceParent: try row.optionalString("trace_parent")
        ) {
            try StoredJSON.value(EventBody.self, from: $0)
        }
        return StoredEvent(
            event: event,
            status: StoredEvent.Status(rawValue: try row.string("status")) ?? .pending,
            cursor: try row.optionalString("cursor"),
            recipients: try row.int("recipients"),
            finishedAt: try row.optionalDate("finished_at"),
            reason: try row.optionalString("reason").flatMap(NobodyReason.init(rawValue:))
        )
    }
}
