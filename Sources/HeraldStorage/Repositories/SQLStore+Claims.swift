import Foundation
import HeraldCore
import SQLKit

/// Claims handed on at once: a stopping process's own, and those of processes that are gone.
extension SQLStore: ClaimRepository {
    public func releaseClaims(of owner: String) async throws -> ReleasedClaims {
        try await release(SQLQueryString("lease_owner = \(bind: owner)"))
    }

    public func releaseAbandonedClaims(liveSince: Date?, except owner: String) async throws -> ReleasedClaims {
        guard let liveSince else {
            return try await release(SQLQueryString("(lease_owner IS NULL OR lease_owner <> \(bind: owner))"))
        }
        // Held by a process whose heartbeat stopped before `liveSince` (a process that never
        // said it was alive keeps its claims until their leases run out).
        return try await release(
            SQLQueryString(
                """
                lease_owner IN (SELECT instance_id FROM herald_instances WHERE heartbeat_at < \(bind: liveSince.ms)) AND lease_owner <> \(bind: owner)
                """
            )
        )
    }

    /// Events being fanned out, deliveries being sent and campaigns being run whose claim
    /// `holder` matches become claimable now (their leases end; nothing else changes).
    private func release(_ holder: SQLQueryString) async throws -> ReleasedClaims {
        try await transaction { db in
            let events = try await db.raw(
                """
                UPDATE events SET lease_until = 0, lease_owner = NULL WHERE status = 'fanning_out' AND \(holder) RETURNING id
                """
            ).rows().count
            let deliveries = try await db.raw(
                """
                UPDATE deliveries SET lease_until = 0, lease_owner = NULL WHERE status = 'sending' AND \(holder) RETURNING id
                """
            ).rows().count
            let campaigns = try await db.raw(
                """
                UPDATE campaigns SET lease_until = 0, lease_owner = NULL WHERE status = 'sending' AND \(holder) RETURNING id
                """
            ).rows().count
            // Notice windows being closed: due again at once.
            try await db.raw("UPDATE notice_windows SET lease_until = NULL, lease_owner = NULL WHERE lease_owner IS NOT NULL AND \(holder)").perform()
            return ReleasedClaims(events: events, deliveries: deliveries, campaigns: campaigns)
        }
    }
}
