import Foundation
import HeraldCore
import HeraldModels
import SQLKit

/// Notice windows: clears coalesced and bursts held, per (user, conversation).
extension SQLStore: NoticeWindowRepository {
    public func windows(appId: String, uids: [String]) async throws -> [NoticeWindow] {
        guard !uids.isEmpty else { return [] }
        return try await lookup { db in
            var windows: [NoticeWindow] = []
            for chunk in uids.chunks(of: Self.rowChunk) {
                windows += try await db.select().column("*").from("notice_windows")
                    .where("app_id", .equal, appId).where("uid", .in, chunk)
                    .all().map(Self.window)
            }
            return windows
        }
    }

    public func claimDueWindows(limit: Int, now: Date, claim: Claim) async throws -> [NoticeWindow] {
        let rows = try await write { db in
            try await db.raw(
                """
                UPDATE notice_windows SET lease_until = \(bind: claim.until.ms), lease_owner = \(bind: claim.owner)
                WHERE (app_id, uid, conversation_id, kind) IN (
                    SELECT app_id, uid, conversation_id, kind FROM notice_windows
                    WHERE closes_at <= \(bind: now.ms) AND (lease_until IS NULL OR lease_until < \(bind: now.ms))
                    ORDER BY closes_at LIMIT \(bind: limit)\(unsafeRaw: self.skipLocked))
                RETURNING *
                """
            ).rows()
        }
        return try rows.map(Self.window)
    }

    public func closeWindows(_ closes: [WindowClose], deliveries: [Delivery], claim: Claim) async throws {
        guard !closes.isEmpty || !deliveries.isEmpty else { return }
        try await transaction { db in
            try await db.insert(into: "deliveries", columns: Self.deliveryColumns, rows: deliveries.map(Self.deliveryRow), conflict: .ignore)
            for close in closes {
                let key = close.key
                let match = SQLQueryString(
                    """
                    app_id = \(bind: close.appId) AND uid = \(bind: key.uid) AND conversation_id = \(bind: key.conversationId)
                    AND kind = \(bind: key.kind.rawValue) AND lease_owner = \(bind: claim.owner)
                    """
                )
                if close.reopenUntil == nil {
                    // Removed unless a fan-out held one more meanwhile: then it stays, due, for the next close.
                    try await db.raw("DELETE FROM notice_windows WHERE \(match) AND held = \(bind: close.released)").perform()
                }
                try await db.raw(
                    """
                    UPDATE notice_windows SET
                        held = CASE WHEN held > \(bind: close.released) THEN held - \(bind: close.released) ELSE 0 END,
                        closes_at = \(bind: (close.reopenUntil ?? Date.distantPast).ms), count = \(bind: close.count),
                        lease_until = NULL, lease_owner = NULL
                    WHERE \(match)
                    """
                ).perform()
            }
        }
    }

    /// The window changes of committed fan-out steps, inside their transaction.
    /// In the order of their keys, so that concurrent commits lock the rows they share in the same
    /// order (PostgreSQL would otherwise abort one of two transactions upserting the same windows
    /// in opposite orders as a deadlock).
    static func applyWindowChanges(_ changes: [WindowChange], db: any SQLDatabase) async throws {
        let ordered = changes.enumerated().sorted { left, right in
            let (a, b) = (left.element.lockOrder, right.element.lockOrder)
            return a != b ? a < b : left.offset < right.offset
        }
        for change in ordered.map(\.element) {
            switch change {
            case .open(let window):
                try await db.raw(
                    """
                    INSERT INTO notice_windows (
                        app_id, uid, conversation_id, kind, closes_at, held, count, last_event_id, collapse_id, except_session)
                    VALUES (\(bind: window.appId), \(bind: window.key.uid), \(bind: window.key.conversationId), \(bind: window.key.kind.rawValue),
                        \(bind: window.closesAt.ms), 0, \(bind: window.count), \(bind: window.lastEventId), \(bind: window.collapseId),
                        \(bind: window.exceptSession))
                    ON CONFLICT (app_id, uid, conversation_id, kind) DO UPDATE SET
                        closes_at = excluded.closes_at, held = 0, count = excluded.count, last_event_id = excluded.last_event_id,
                        collapse_id = excluded.collapse_id, except_session = excluded.except_session, lease_until = NULL, lease_owner = NULL
                    """
                ).perform()
            case .hold(let appId, let key, let eventId, let exceptSession, let closesAt):
                // The latest event is the one told of (event ids grow with time): batches decided
                // together may commit in either order.
                try await db.raw(
                    """
                    INSERT INTO notice_windows (app_id, uid, conversation_id, kind, closes_at, held, count, last_event_id, except_session)
                    VALUES (\(bind: appId), \(bind: key.uid), \(bind: key.conversationId), \(bind: key.kind.rawValue), \(bind: closesAt.ms),
                        1, 2, \(bind: eventId), \(bind: exceptSession))
                    ON CONFLICT (app_id, uid, conversation_id, kind) DO UPDATE SET
                        held = notice_windows.held + 1, count = notice_windows.count + 1,
                        last_event_id = CASE WHEN notice_windows.last_event_id IS NULL OR excluded.last_event_id > notice_windows.last_event_id
                            THEN excluded.last_event_id ELSE notice_windows.last_event_id END,
                        except_session = CASE WHEN notice_windows.last_event_id IS NULL OR excluded.last_event_id > notice_windows.last_event_id
                            THEN excluded.except_session ELSE notice_windows.except_session END
                    """
                ).perform()
            case .remove(let appId, let key):
                try await db.raw(
                    """
                    DELETE FROM notice_windows WHERE app_id = \(bind: appId) AND uid = \(bind: key.uid)
                    AND conversation_id = \(bind: key.conversationId) AND kind = \(bind: key.kind.rawValue)
                    """
                ).perform()
            }
        }
    }

    static func window(_ row: any SQLRow) throws -> NoticeWindow {
        let kindText = try row.string("kind")
        guard let kind = NoticeWindow.Kind(rawValue: kindText) else {
            throw HeraldError(.internal, "a stored notice window has the unknown kind '\(kindText)'")
        }
        return NoticeWindow(
            appId: try row.string("app_id"),
            key: NoticeWindow.Key(uid: try row.string("uid"), conversationId: try row.string("conversation_id"), kind: kind),
            closesAt: try row.date("closes_at"),
            held: try row.int("held"),
            count: try row.int("count"),
            lastEventId: try row.optionalString("last_event_id"),
            collapseId: try row.optionalString("collapse_id"),
            exceptSession: try row.optionalString("except_session")
        )
    }
}

extension WindowChange {
    /// The row it locks, as text that sorts the same way everywhere.
    var lockOrder: String {
        switch self {
        case .open(let window): [window.appId, window.key.uid, window.key.conversationId, window.key.kind.rawValue].joined(separator: "\u{1}")
        case .hold(let appId, let key, _, _, _), .remove(let appId, let key):
            [appId, key.uid, key.conversationId, key.kind.rawValue].joined(separator: "\u{1}")
        }
    }
}
