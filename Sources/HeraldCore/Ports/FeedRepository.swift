import Foundation
import HeraldModels

/// Feed set-up (channels, categories, card templates), items, engagements and campaigns.
public protocol FeedRepository: Sendable {
    func setupRecords(appId: String, kind: FeedSetupKind, after: String?, limit: Int) async throws -> [FeedSetupRecord]
    func setupRecord(appId: String, kind: FeedSetupKind, id: String) async throws -> FeedSetupRecord?
    /// Inserts (`create`, failing with `conflict` when the id is taken) or replaces a record
    /// (failing with `notFound` when there is none).
    func putSetupRecord(appId: String, _ record: FeedSetupRecord, create: Bool) async throws
    func deleteSetupRecord(appId: String, kind: FeedSetupKind, id: String) async throws -> Bool

    /// Stores items, and the deliveries of those stored; an item for a (campaign, user) that
    /// already has one is not stored again (a campaign batch replayed after a crash). Returns the
    /// ids of the items stored.
    func insertFeedItems(_ items: [FeedItem], deliveries: [Delivery]) async throws -> Set<String>
    func feedItems(appId: String, uid: String, query: FeedQuery, before: String?) async throws -> [FeedItem]
    func feedItem(appId: String, uid: String, id: String) async throws -> FeedItem?
    /// Items by id, any user of the app. Without `content`, an item's card, metadata and tags are
    /// left empty, unread: what the dispatcher building its campaign push needs.
    func feedItems(appId: String, ids: [String], content: Bool) async throws -> [String: FeedItem]
    func unreadFeedCount(appId: String, uid: String, categoryId: String?, category: String?) async throws -> Int
    /// Sets `read_at` / `delivered_at` when unset; returns the item as it now is.
    func markFeedItem(appId: String, uid: String, id: String, _ mark: FeedMark, at: Date) async throws -> FeedItem?
    /// Records an interaction once per item; returns false when it was already recorded.
    func engage(appId: String, uid: String, itemId: String, interaction: String, campaignId: String?, at: Date) async throws -> Bool
    /// Sets the push's delivered / clicked time when unset; returns the item, nil when unknown.
    func markPush(appId: String, uid: String, pushNotificationId: String, clicked: Bool, at: Date) async throws -> FeedItem?

    func insertCampaign(_ campaign: Campaign) async throws
    func updateCampaign(_ campaign: Campaign) async throws
    func campaign(appId: String, id: String) async throws -> Campaign?
    func campaigns(appId: String, after: String?, limit: Int) async throws -> [Campaign]
    func deleteCampaign(appId: String, id: String) async throws -> Bool
    /// Takes a campaign due to send (scheduled and due, or sending with its lease run out): one
    /// process gets each. Returns it with its new lease.
    func claimCampaign(now: Date, claim: Claim) async throws -> Campaign?
    /// Moves a campaign from one status to another; false when it was not in `from`.
    func transitionCampaign(appId: String, id: String, from: [Campaign.Status], to: Campaign.Status, at: Date) async throws -> Bool
    /// Records a batch's progress: the campaign's cursor, counters and lease, unless it was
    /// cancelled meanwhile (then false).
    func recordCampaignProgress(_ campaign: Campaign, leaseUntil: Date?) async throws -> Bool
    func campaignStats(appId: String, id: String) async throws -> CampaignStats
    /// The next page of a campaign's audience: users after `cursor` (by uid).
    func audience(appId: String, _ audience: Audience, after cursor: String?, limit: Int) async throws -> [User]
}
