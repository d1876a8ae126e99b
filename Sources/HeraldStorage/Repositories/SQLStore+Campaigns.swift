import Foundation
import HeraldCore
import HeraldModels
import SQLKit

/// Campaigns: settings as a JSON body, and the columns their claims and progress need.
extension SQLStore {
    /// A campaign's settings as stored.
    struct CampaignBody: Codable {
        var name: String
        var audience: Audience
        var templateId: String?
        var card: JSONValue?
        var data: JSONObject
        var channelId: String?
        var categoryId: String?
        var tags: [String]
        var metadata: JSONObject
        var push: CampaignPush?

        init(_ campaign: Campaign) {
            name = campaign.name
            audience = campaign.audience
            templateId = campaign.templateId
            card = campaign.card
            data = campaign.data
            channelId = campaign.channelId
            categoryId = campaign.categoryId
            tags = campaign.tags
            metadata = campaign.metadata
            push = campaign.push
        }
    }

    public func insertCampaign(_ campaign: Campaign) async throws {
        let body = try StoredJSON.text(CampaignBody(campaign))
        try await write { db in
            try await db.raw(
                """
                INSERT INTO campaigns (app_id, id, status, send_at, body, audience_size, items_created, pushes_queued, created_at, updated_at)
                VALUES (\(bind: campaign.appId), \(bind: campaign.id), \(bind: campaign.status.rawValue), \(bind: campaign.sendAt?.ms), \(bind: body),
                        0, 0, 0, \(bind: campaign.createdAt.ms), \(bind: campaign.updatedAt.ms))
                """
            ).perform()
        }
    }

    /// Replaces the settings of a campaign that has not started.
    public func updateCampaign(_ campaign: Campaign) async throws {
        let body = try StoredJSON.text(CampaignBody(campaign))
        let updated = try await write { db in
            try await db.raw(
                """
                UPDATE campaigns SET status = \(bind: campaign.status.rawValue), send_at = \(bind: campaign.sendAt?.ms), body = \(bind: body),
                    updated_at = \(bind: campaign.updatedAt.ms)
                WHERE app_id = \(bind: campaign.appId) AND id = \(bind: campaign.id) AND status IN ('draft', 'scheduled') RETURNING id
                """
            ).firstRow() != nil
        }
        guard updated else { throw HeraldError(.conflict, code: "campaign_started", "campaign \(campaign.id) has started") }
    }

    public func campaign(appId: String, id: String) async throws -> Campaign? {
        try await lookup { db in
            try await db.raw("SELECT * FROM campaigns WHERE app_id = \(bind: appId) AND id = \(bind: id)").firstRow().map(Self.campaign)
        }
    }

    public func campaigns(appId: String, after: String?, limit: Int) async throws -> [Campaign] {
        try await lookup { db in
            // Newest first; ids grow with time.
            let before = after.map { SQLQueryString(" AND id < \(bind: $0)") } ?? ""
            return try await db.raw("SELECT * FROM campaigns WHERE app_id = \(bind: appId)\(before) ORDER BY id DESC LIMIT \(bind: limit)")
                .rows().map(Self.campaign)
        }
    }

    public func deleteCampaign(appId: String, id: String) async throws -> Bool {
        try await write { db in
            try await db.raw("DELETE FROM campaigns WHERE app_id = \(bind: appId) AND id = \(bind: id) AND status <> 'sending' RETURNING id")
                .firstRow() != nil
        }
    }

    /// Compare-and-set on the row: of several processes asking at once, one update matches.
    public func claimCampaign(now: Date, claim: Claim) async throws -> Campaign? {
        let candidates = try await lookup { db in
            try await db.raw(
                """
                SELECT app_id, id FROM campaigns WHERE status = 'scheduled' AND send_at <= \(bind: now.ms)
                UNION ALL
                SELECT app_id, id FROM campaigns WHERE status = 'sending' AND lease_until < \(bind: now.ms)
                LIMIT 10
                """
            ).rows().map { (try $0.string("app_id"), try $0.string("id")) }
        }
        for (appId, id) in candidates {
            let claimed = try await write { db in
                try await db.raw(
                    """
                    UPDATE campaigns SET status = 'sending', lease_until = \(bind: claim.until.ms), lease_owner = \(bind: claim.owner),
                        started_at = COALESCE(started_at, \(bind: now.ms)),
                        updated_at = \(bind: now.ms)
                    WHERE app_id = \(bind: appId) AND id = \(bind: id)
                      AND ((status = 'scheduled' AND send_at <= \(bind: now.ms)) OR (status = 'sending' AND lease_until < \(bind: now.ms)))
                    RETURNING *
                    """
                ).firstRow().map(Self.campaign)
            }
            if let claimed { return claimed }
        }
        return nil
    }

    public func transitionCampaign(appId: String, id: String, from: [Campaign.Status], to: Campaign.Status, at date: Date) async throws -> Bool {
        let finished = to == .cancelled || to == .sent ? date.ms : nil
        return try await write { db in
            try await db.raw(
                """
                UPDATE campaigns SET status = \(bind: to.rawValue), updated_at = \(bind: date.ms), finished_at = COALESCE(finished_at, \(bind: finished)),
                    lease_until = NULL
                WHERE app_id = \(bind: appId) AND id = \(bind: id) AND status IN (\(binds: from.map(\.rawValue))) RETURNING id
                """
            ).firstRow() != nil
        }
    }

    public func recordCampaignProgress(_ campaign: Campaign, leaseUntil: Date?) async throws -> Bool {
        let body = try StoredJSON.text(CampaignBody(campaign))
        return try await write { db in
            try await db.raw(
                """
                UPDATE campaigns SET status = \(bind: campaign.status.rawValue), body = \(bind: body), cursor = \(bind: campaign.cursor),
                    audience_size = \(bind: campaign.audienceSize), items_created = \(bind: campaign.itemsCreated),
                    pushes_queued = \(bind: campaign.pushesQueued), finished_at = \(bind: campaign.finishedAt?.ms),
                    lease_until = \(bind: leaseUntil?.ms), updated_at = \(bind: campaign.updatedAt.ms)
                WHERE app_id = \(bind: campaign.appId) AND id = \(bind: campaign.id) AND status = 'sending' RETURNING id
                """
            ).firstRow() != nil
        }
    }

    public func campaignStats(appId: String, id: String) async throws -> CampaignStats {
        try await lookup { db in
            var stats = CampaignStats()
            if let row = try await db.raw("SELECT audience_size, items_created FROM campaigns WHERE app_id = \(bind: appId) AND id = \(bind: id)")
                .firstRow()
            {
                stats.audienceSize = try row.int("audience_size")
                stats.itemsCreated = try row.int("items_created")
            }
            if let row = try await db.raw(
                """
                SELECT COUNT(delivered_at) AS delivered, COUNT(read_at) AS read, COUNT(push_delivered_at) AS push_delivered,
                       COUNT(push_clicked_at) AS push_clicked
                FROM feed_items WHERE app_id = \(bind: appId) AND campaign_id = \(bind: id)
                """
            ).firstRow() {
                stats.delivered = try row.int("delivered")
                stats.read = try row.int("read")
                stats.pushesDelivered = try row.int("push_delivered")
                stats.pushesClicked = try row.int("push_clicked")
            }
            for row in try await db.raw(
                """
                SELECT interaction, COUNT(*) AS n FROM feed_engagements WHERE campaign_id = \(bind: id) AND app_id = \(bind: appId) GROUP BY interaction
                """
            ).rows() {
                stats.engaged[try row.string("interaction")] = try row.int("n")
            }
            for row in try await db.raw(
                """
                SELECT d.status AS status, COUNT(*) AS n FROM deliveries d JOIN feed_items f ON d.event_id = f.id
                WHERE f.app_id = \(bind: appId) AND f.campaign_id = \(bind: id) GROUP BY d.status
                """
            ).rows() {
                let count = try row.int("n")
                switch DeliveryStatus(rawValue: try row.string("status")) {
                case .delivered?: stats.pushesSent += count
                case .pending?, .sending?: stats.pushesPending += count
                default: stats.pushesFailed += count
                }
            }
            // Hourly buckets of each kind of step.
            var buckets: [Int64: CampaignStats.Bucket] = [:]
            func count(_ sql: SQLQueryString, _ apply: (inout CampaignStats.Bucket, Int) -> Void) async throws {
                for row in try await db.raw(sql).rows() {
                    let hour = Int64(try row.int("h"))
                    var bucket = buckets[hour] ?? CampaignStats.Bucket(start: Date(millisecondsSince1970: hour * 3_600_000))
                    apply(&bucket, try row.int("n"))
                    buckets[hour] = bucket
                }
            }
            for (column, apply) in [
                ("delivered_at", { (b: inout CampaignStats.Bucket, n: Int) in b.delivered += n }),
                ("read_at", { $0.read += $1 }), ("push_delivered_at", { $0.pushesDelivered += $1 }),
                ("push_clicked_at", { $0.pushesClicked += $1 }),
            ] {
                try await count(
                    """
                    SELECT \(unsafeRaw: column) / 3600000 AS h, COUNT(*) AS n FROM feed_items
                    WHERE app_id = \(bind: appId) AND campaign_id = \(bind: id) AND \(unsafeRaw: column) IS NOT NULL GROUP BY \(unsafeRaw: column) / 3600000
                    """,
                    apply
                )
            }
            try await count(
                """
                SELECT created_at / 3600000 AS h, COUNT(*) AS n FROM feed_engagements WHERE campaign_id = \(bind: id) AND app_id = \(bind: appId)
                GROUP BY created_at / 3600000
                """
            ) { $0.engaged += $1 }
            stats.timeline = buckets.values.sorted { $0.start < $1.start }
            return stats
        }
    }

    public func audience(appId: String, _ audience: Audience, after cursor: String?, limit: Int) async throws -> [User] {
        let after = cursor ?? ""
        switch audience {
        case .all:
            return try await lookup { db in
                try await db.raw("SELECT * FROM users WHERE app_id = \(bind: appId) AND uid > \(bind: after) ORDER BY uid LIMIT \(bind: limit)")
                    .rows().map(Self.user)
            }
        case .tags(let tags, let all):
            let match = Self.anyTag(tags, all: all)
            return try await lookup { db in
                try await db.raw(
                    """
                    SELECT * FROM users WHERE app_id = \(bind: appId) AND uid > \(bind: after) AND (\(match)) ORDER BY uid LIMIT \(bind: limit)
                    """
                ).rows().map(Self.user)
            }
        case .groups(let guids):
            return try await lookup { db in
                try await db.raw(
                    """
                    SELECT * FROM users u WHERE u.app_id = \(bind: appId) AND u.uid > \(bind: after) AND EXISTS (
                        SELECT 1 FROM group_members m WHERE m.app_id = u.app_id AND m.uid = u.uid AND m.guid IN (\(binds: guids)))
                    ORDER BY u.uid LIMIT \(bind: limit)
                    """
                ).rows().map(Self.user)
            }
        case .uids(let uids):
            // Given uids in order; ones that are not users are passed over.
            let sorted = Set(uids).filter { $0 > after }.sorted()
            for chunk in sorted.chunks(of: limit) {
                let found = try await users(appId: appId, uids: Array(chunk))
                let page = chunk.compactMap { found[$0] }
                if !page.isEmpty { return page }
            }
            return []
        }
    }

    static func campaign(_ row: any SQLRow) throws -> Campaign {
        let body = try StoredJSON.value(CampaignBody.self, from: try row.string("body"))
        guard let status = Campaign.Status(rawValue: try row.string("status")) else { throw HeraldError(.internal, "unknown campaign status") }
        return Campaign(
            id: try row.string("id"),
            appId: try row.string("app_id"),
            name: body.name,
            status: status,
            audience: body.audience,
            templateId: body.templateId,
            card: body.card,
            data: body.data,
            channelId: body.channelId,
            categoryId: body.categoryId,
            tags: body.tags,
            metadata: body.metadata,
            push: body.push,
            sendAt: try row.optionalDate("send_at"),
            startedAt: try row.optionalDate("started_at"),
            finishedAt: try row.optionalDate("finished_at"),
            cursor: try row.optionalString("cursor"),
            audienceSize: try row.int("audience_size"),
            itemsCreated: try row.int("items_created"),
            pushesQueued: try row.int("pushes_queued"),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at")
        )
    }
}
