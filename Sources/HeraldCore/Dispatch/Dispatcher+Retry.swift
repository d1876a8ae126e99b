import Foundation
import HeraldModels

extension Dispatcher {
    /// Sends deliveries claimed from the outbox (retries, campaign pushes, and pushes whose
    /// sender died before recording them) and records what became of them; returns the updates.
    /// `items` are feed items the caller has at hand (a campaign's batch): they are not read again.
    @discardableResult
    public func retry(_ claimed: [Delivery], items: [String: FeedItem] = [:]) async throws -> [DeliveryUpdate] {
        let now = clock.now()
        var updates: [DeliveryUpdate] = []
        var pushes: [PreparedPush] = []
        var snapshots: [String: AppSnapshot] = [:]
        for (appId, deliveries) in Dictionary(grouping: claimed, by: \.appId) {
            let rebuilt = await rebuild(deliveries, appId: appId, now: now, items: items)
            updates += rebuilt.ended
            pushes += rebuilt.pushes
            snapshots[appId] = rebuilt.snapshot
        }
        updates += await send(pushes, snapshots: snapshots)
        try await ports.deliveries.updateDeliveries(updates)
        return updates
    }

    struct Rebuilt {
        var snapshot: AppSnapshot?
        var pushes: [PreparedPush] = []
        /// Deliveries that end (or wait) without being sent.
        var ended: [DeliveryUpdate] = []
    }

    /// The pushes of one app's stored deliveries, made again from their events (or feed items)
    /// with the badge and unread count the user has now.
    func rebuild(_ deliveries: [Delivery], appId: String, now: Date, items known: [String: FeedItem] = [:]) async -> Rebuilt {
        let snapshot: AppSnapshot?
        do {
            snapshot = try await snapshots.app(appId)
        } catch {
            let reason = FailureReason.unreadable(what: "the app", error: "\(error)")
            return Rebuilt(ended: deliveries.map { SendVerdict.retryOrGiveUp($0, reason, retryAfter: nil, retry: retry, at: now) })
        }
        guard let snapshot else { return Rebuilt(ended: deliveries.map { .ended($0, .failed, .providerDeleted, at: now) }) }
        var rebuilt = Rebuilt(snapshot: snapshot)
        let counts = await currentUnread(of: deliveries, snapshot: snapshot)
        let items: [String: FeedItem]
        do {
            items = try await feedItems(of: deliveries, appId: appId, known: known)
        } catch {
            let reason = FailureReason.unreadable(what: "the feed items", error: "\(error)")
            return Rebuilt(ended: deliveries.map { SendVerdict.retryOrGiveUp($0, reason, retryAfter: nil, retry: retry, at: now) })
        }
        var texts = TextCache()
        for var delivery in deliveries {
            let credential: ProviderCredential
            switch snapshot.usableCredential(delivery.providerId) {
            case .success(let usable): credential = usable
            case .failure(let reason):
                rebuilt.ended.append(.ended(delivery, .failed, reason, at: now))
                continue
            }
            let push: Result<OutgoingPush, FailureReason>
            switch delivery.subject {
            case .feedItem(let id):
                push = items[id].map { PushBuilder.push(for: delivery, of: $0) } ?? .failure(.subjectGone(.feedItem))
            case .event(let id):
                push = await event(id, appId: appId).flatMap { event in
                    if let counts { delivery.refreshCounts(counts[delivery.uid] ?? [:], conversationId: event.conversationId) }
                    return PushBuilder.push(
                        for: delivery,
                        of: event,
                        snapshot: snapshot,
                        settings: credential.config.settings,
                        texts: &texts,
                        now: now
                    )
                }
            }
            switch push {
            case .success(let push): rebuilt.pushes.append(PreparedPush(delivery: delivery, push: push))
            case .failure(let reason): rebuilt.ended.append(.ended(delivery, .failed, reason, at: now))
            }
        }
        return rebuilt
    }

    /// The unread counts of the deliveries' users now, when the app shows them (nil when it does
    /// not, or they could not be read: the counts decided with the push stand).
    func currentUnread(of deliveries: [Delivery], snapshot: AppSnapshot) async -> [String: [String: Int]]? {
        guard snapshot.settings.badge || snapshot.settings.includeConversationUnread else { return nil }
        let uids = Array(Set(deliveries.filter { $0.subject.eventId != nil }.map(\.uid)))
        guard !uids.isEmpty else { return nil }
        return try? await ports.unread.unreadCounts(appId: snapshot.app.id, uids: uids)
    }

    func feedItems(of deliveries: [Delivery], appId: String, known: [String: FeedItem] = [:]) async throws -> [String: FeedItem] {
        let ids = Set(deliveries.compactMap(\.subject.feedItemId)).filter { known[$0] == nil }
        guard !ids.isEmpty, let feed = ports.feed else { return known }
        return known.merging(try await feed.feedItems(appId: appId, ids: Array(ids), content: false)) { $1 }
    }

    func event(_ id: String, appId: String) async -> Result<ResolvedEvent, FailureReason> {
        do {
            guard let event = try await events.resolvedEvent(appId: appId, eventId: id, snapshots: snapshots) else {
                return .failure(.subjectGone(.event))
            }
            return .success(event)
        } catch {
            return .failure(.unreadable(what: "the event", error: "\(error)"))
        }
    }
}

extension Delivery {
    /// A retry shows the counts the user has now, not those when the push was decided.
    mutating func refreshCounts(_ counts: [String: Int], conversationId: String) {
        if badge != nil { badge = counts.values.reduce(0, +) }
        if unread != nil { unread = counts[conversationId] ?? 0 }
    }
}
