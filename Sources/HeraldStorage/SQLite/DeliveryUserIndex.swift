import Foundation
import Logging
import SQLKit

/// SQLite's delivery log by user (`GET /v1/deliveries?uid=`): a table filled in sorted batches,
/// not an index each push's row goes into at a random place.
///
/// An index of `deliveries` on `(app_id, uid, created_at)` took each push's row to a random
/// place among every user's: each insert dirtied a page of its own, written to the WAL at the
/// commit and again by the checkpoint (~0.5 of the 1.5 `pwrite`s per push), and split pages as it
/// went — in the 1:1 benchmark 3–8 µs of the server's CPU per push and ~12 % of its pushes per
/// second (release, 200,000 events, alternating runs with and without it). Instead, every
/// ``interval`` the rows stored since the last time are copied, sorted by key, into
/// `delivery_users` (`WITHOUT ROWID`, keyed by app, user, time and id): a batch dirties each page
/// it reaches once, for all of its entries there.
///
/// `delivery_users_indexed.through` is the newest `deliveries.rowid` copied. SQLite gives a new
/// row the largest rowid yet plus one, and its one writer stores rows in commit order, so the
/// rows past it are exactly those not copied yet: a lookup reads the table and those rows in one
/// statement (one snapshot), and a process killed between two batches leaves nothing behind.
/// PostgreSQL keeps its `deliveries_by_user` index: there, several processes write the log.
enum DeliveryUserIndex {
    /// How often the new rows are copied. Sorted batches pay when they are large beside the
    /// number of users they reach: with 10,000 users, 1,000 entries at a time cost as much as
    /// inserting each alone (each reaches its own page), 20,000 a third of it (measured with the
    /// system SQLite, 400,000 entries).
    static let interval: Duration = .seconds(1)
    /// Rows copied per transaction at most: a long backlog is copied in several.
    static let batch = 50_000

    /// Copies the rows stored since the last copy; true when rows are left for another batch.
    @discardableResult
    static func copy(_ source: any ConnectionSource) async throws -> Bool {
        try await source.transaction { db in
            // A store opened on an older schema (a command that does not migrate) has no log yet.
            let schema = try await db.raw("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'delivery_users_indexed'").firstRow()?.int("n")
            guard schema == 1 else { return false }
            let through = try await db.raw("SELECT through FROM delivery_users_indexed").firstRow()?.int("through") ?? 0
            let newest = try await newestRow(db)
            guard newest > through else { return false }
            let upTo = min(newest, through + batch)
            try await db.raw(
                """
                INSERT OR IGNORE INTO delivery_users (app_id, uid, created_at, delivery_id)
                SELECT app_id, uid, created_at, id FROM deliveries WHERE rowid > \(bind: through) AND rowid <= \(bind: upTo)
                ORDER BY app_id, uid, created_at, id
                """
            ).perform()
            try await db.raw("UPDATE delivery_users_indexed SET through = \(bind: upTo)").perform()
            return upTo < newest
        }
    }

    /// After deliveries were deleted: their entries go, and if the newest rows went, rows stored
    /// from now on (which may be given their rowids again) are found past the newest row left.
    static func forget(appId: String, before: Int64, db: any SQLDatabase) async throws {
        try await db.raw(
            """
            DELETE FROM delivery_users WHERE app_id = \(bind: appId) AND created_at < \(bind: before)
              AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.id = delivery_users.delivery_id)
            """
        ).perform()
        try await db.raw("UPDATE delivery_users_indexed SET through = MIN(through, \(bind: try await newestRow(db)))").perform()
    }

    static func newestRow(_ db: any SQLDatabase) async throws -> Int {
        try await db.raw("SELECT COALESCE(MAX(rowid), 0) AS n FROM deliveries").firstRow()?.int("n") ?? 0
    }

    /// Copies every ``interval`` (at once again while a backlog is left) until cancelled.
    static func run(_ source: any ConnectionSource, logger: Logger) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            do {
                while try await copy(source), !Task.isCancelled {}
            } catch  where !Task.isCancelled {
                logger.warning("the deliveries by user were not indexed; the next batch will", metadata: ["error": "\(error)"])
            } catch {
                return
            }
        }
    }
}
