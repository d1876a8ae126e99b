import Foundation
import HeraldModels

/// `/v1/me/feed`: a signed-in user's items — paged and filtered newest first, marked read or
/// delivered, engaged with — and the tracking of campaign pushes.
public struct UserFeed: Sendable {
    let feed: any FeedRepository
    let realtime: any RealtimeDelivery
    let clock: any WallClock

    public init(feed: any FeedRepository, realtime: any RealtimeDelivery, clock: any WallClock = SystemWallClock()) {
        self.feed = feed
        self.realtime = realtime
        self.clock = clock
    }

    /// A page, newest first. The cursor is the last item's id (ids grow with time), so items
    /// arriving meanwhile land before the first page, never inside a later one.
    public func page(appId: String, uid: String, _ query: FeedQuery) async throws -> Page<FeedItem> {
        guard (1...100).contains(query.limit) else { throw HeraldError.invalidField("limit", "must be 1 to 100") }
        if let from = query.dateFrom, let to = query.dateTo, from > to { throw HeraldError.invalidField("dateFrom", "must not be after dateTo") }
        let before = try query.cursor.map(Cursor.decode)
        var probe = query
        probe.limit = query.limit + 1
        return Page(probed: try await feed.feedItems(appId: appId, uid: uid, query: probe, before: before), limit: query.limit, key: \.id)
    }

    public func item(appId: String, uid: String, id: String) async throws -> FeedItem {
        guard let item = try await feed.feedItem(appId: appId, uid: uid, id: id) else { throw HeraldError.notFound("feed item", id) }
        return item
    }

    public func unreadCount(appId: String, uid: String, categoryId: String?, category: String?) async throws -> Int {
        try await feed.unreadFeedCount(appId: appId, uid: uid, categoryId: categoryId, category: categoryId == nil ? category : nil)
    }

    /// Idempotent: a second mark keeps the first time. Marking read tells the user's sockets the
    /// new unread count.
    public func mark(appId: String, uid: String, id: String, _ mark: FeedMark) async throws -> FeedItem {
        let now = clock.now()
        guard let item = try await feed.markFeedItem(appId: appId, uid: uid, id: id, mark, at: now) else {
            throw HeraldError.notFound("feed item", id)
        }
        // Read just now (the first read keeps its time): the unread count changed.
        if mark == .read, item.readAt?.millisecondsSince1970 == now.millisecondsSince1970 {
            let count = try await feed.unreadFeedCount(appId: appId, uid: uid, categoryId: nil, category: nil)
            _ = await realtime.deliver(.unread(.init(unreadCount: count)), appId: appId, uids: [uid])
        }
        return item
    }

    /// Records an interaction (`clicked`, a button's id…) once per item; returns whether it was new.
    public func engage(appId: String, uid: String, id: String, interaction: String) async throws -> Bool {
        try Validate.text(interaction, field: "interaction", maxLength: 100, required: true)
        let item = try await item(appId: appId, uid: uid, id: id)
        return try await feed.engage(appId: appId, uid: uid, itemId: id, interaction: interaction, campaignId: item.campaignId, at: clock.now())
    }

    /// A campaign push reached the device (`clicked: false`) or was tapped; idempotent.
    public func trackPush(appId: String, uid: String, pushNotificationId: String, clicked: Bool) async throws -> FeedItem {
        guard let item = try await feed.markPush(appId: appId, uid: uid, pushNotificationId: pushNotificationId, clicked: clicked, at: clock.now())
        else {
            throw HeraldError.notFound("push notification", pushNotificationId)
        }
        return item
    }
}
