import Foundation
import HeraldModels

/// Writes one batch of feed items — the card filled for each user, checked, stored with the
/// pushes it asks for in one transaction — and tells the users who are online. The pushes go
/// out through the outbox (retries, token pruning) like any other.
public struct FeedPublisher: Sendable {
    let feed: any FeedRepository
    let directory: any RecipientDirectory
    let providers: any ProviderRepository
    let presence: any PresenceView
    let realtime: any RealtimeDelivery
    let clock: any WallClock

    public init(
        feed: any FeedRepository,
        directory: any RecipientDirectory,
        providers: any ProviderRepository,
        presence: any PresenceView,
        realtime: any RealtimeDelivery,
        clock: any WallClock = SystemWallClock()
    ) {
        self.feed = feed
        self.directory = directory
        self.providers = providers
        self.presence = presence
        self.realtime = realtime
        self.clock = clock
    }

    public struct BatchResult: Sendable, Equatable {
        public var items: [FeedItem]
        /// Items stored (fewer than `items` when a replayed batch found some already there).
        public var stored: Int
        public var pushes: Int
        /// Users whose filled card was not valid, with the first problem.
        public var rejected: [String: String]
        /// The pushes stored claimed by the caller, to send now (``store(_:claim:)``).
        public var claimed: [Delivery] = []
    }

    /// A batch made and not yet stored: each user's item, the pushes they ask for, the users
    /// whose card was refused.
    public struct Prepared: Sendable {
        public var appId: String
        public var items: [FeedItem]
        public var deliveries: [Delivery]
        public var rejected: [String: String]
    }

    public func publish(appId: String, users: [User], spec: FeedItemSpec) async throws -> BatchResult {
        try await store(try await prepare(appId: appId, users: users, spec: spec))
    }

    /// Stores a prepared batch in one transaction and tells the users who are online. With a
    /// `claim`, its pushes are stored already claimed (sending, leased to the claim's owner) and
    /// returned for the caller to send at once, without a trip through the outbox; should the
    /// caller die first, they are taken over like any claimed push.
    public func store(_ batch: Prepared, claim: Claim? = nil) async throws -> BatchResult {
        var deliveries = batch.deliveries
        if let claim {
            for index in deliveries.indices {
                deliveries[index].status = .sending
                deliveries[index].leaseUntil = claim.until
                deliveries[index].leaseOwner = claim.owner
            }
        }
        let stored = try await feed.insertFeedItems(batch.items, deliveries: deliveries)
        await tellOnline(appId: batch.appId, items: batch.items)
        return BatchResult(
            items: batch.items,
            stored: stored.count,
            pushes: batch.deliveries.count,
            rejected: batch.rejected,
            claimed: claim == nil ? [] : deliveries.filter { stored.contains($0.subject.id) }
        )
    }

    /// Fills and checks each user's card and finds the pushes it asks for; stores nothing.
    public func prepare(appId: String, users: [User], spec: FeedItemSpec) async throws -> Prepared {
        // Whole milliseconds, as stored: the items sent now carry the same `sentAt` as when read back.
        let now = clock.now().asStored
        var items: [FeedItem] = []
        var rejected: [String: String] = [:]
        for user in users {
            let context = Self.context(user: user, spec: spec)
            let card = Self.fill(spec.card, context)
            if let problem = CardValidator.problems(card).first {
                rejected[user.uid] = "\(problem.pointer) \(problem.message)"
                continue
            }
            items.append(
                FeedItem(
                    id: Identifier.timeOrdered(FeedItem.idPrefix, now: now),
                    appId: appId,
                    uid: user.uid,
                    campaignId: spec.campaignId,
                    channelId: spec.channelId,
                    categoryId: spec.categoryId,
                    category: spec.category,
                    content: card,
                    metadata: spec.metadata,
                    tags: spec.tags,
                    sender: spec.sender,
                    sentAt: now,
                    pushNotificationId: spec.push == nil ? nil : Identifier.uuid(),
                    pushTitle: spec.push.map { TemplateRenderer.render($0.title, context) },
                    pushBody: spec.push.map { TemplateRenderer.render($0.body, context) }
                )
            )
        }
        let deliveries = try await pushes(appId: appId, items: items, push: spec.push, now: now)
        return Prepared(appId: appId, items: items, deliveries: deliveries, rejected: rejected)
    }

    /// One outbox delivery per device token of each item's user (VoIP tokens and webhook
    /// providers are not for campaigns), through the providers chosen or all enabled ones.
    func pushes(appId: String, items: [FeedItem], push: CampaignPush?, now: Date) async throws -> [Delivery] {
        guard let push, !items.isEmpty else { return [] }
        let enabled = try await providers.providers(appId: appId).filter { $0.config.enabled && $0.kind != .custom }
        let allowed = Set(enabled.map(\.providerId)).intersection(push.providerIds.map(Set.init) ?? Set(enabled.map(\.providerId)))
        guard !allowed.isEmpty else { return [] }
        let byUser = try await directory.tokens(appId: appId, uids: items.map(\.uid))
        var deliveries: [Delivery] = []
        for item in items {
            for token in byUser[item.uid] ?? [] where token.kind != .apnsVoIP && allowed.contains(token.providerId) {
                var delivery = Delivery(
                    appId: appId,
                    subject: .feedItem(item.id),
                    uid: item.uid,
                    target: .token(token.token),
                    sessionId: token.sessionId,
                    providerId: token.providerId,
                    platform: token.platform,
                    route: .alert,
                    badge: push.badge,
                    status: .pending,
                    nextAttemptAt: now,
                    createdAt: now
                )
                delivery.seal(for: token)
                deliveries.append(delivery)
            }
        }
        return deliveries
    }

    /// Online sessions get the item (`feed_item`) and their new unread count (`unread`).
    func tellOnline(appId: String, items: [FeedItem]) async {
        guard !items.isEmpty, let online = try? await presence.onlineSessions(appId: appId, uids: items.map(\.uid)), !online.isEmpty else { return }
        for item in items {
            guard let sessions = online[item.uid], !sessions.isEmpty else { continue }
            let ids = sessions.map(\.sessionId)
            _ = await realtime.deliver(.feedItem(.init(item: item.json)), appId: appId, sessionIds: ids)
            if let count = try? await feed.unreadFeedCount(appId: appId, uid: item.uid, categoryId: nil, category: nil) {
                _ = await realtime.deliver(.unread(.init(unreadCount: count)), appId: appId, sessionIds: ids)
            }
        }
    }

    /// The variables a card and push texts may use: `user.*`, `campaign.*`, `data.*`, `metadata.*`.
    static func context(user: User, spec: FeedItemSpec) -> [String: Any] {
        var person: [String: Any] = ["uid": user.uid, "name": user.name, "tags": user.tags]
        if let avatar = user.avatar { person["avatar"] = avatar }
        if let metadata = user.metadata { person["metadata"] = JSONValue.object(metadata).foundationValue }
        let data = JSONValue.object(spec.data).foundationValue
        var campaign: [String: Any] = ["data": data]
        if let id = spec.campaignId { campaign["id"] = id }
        if let name = spec.campaignName { campaign["name"] = name }
        return ["user": person, "campaign": campaign, "data": data, "metadata": JSONValue.object(spec.metadata).foundationValue]
    }

    /// The card with every string's `{{variables}}` filled.
    static func fill(_ value: JSONValue, _ context: [String: Any]) -> JSONValue {
        switch value {
        case .string(let text): return TemplateRenderer.hasTag(text) ? .string(TemplateRenderer.render(text, context)) : value
        case .array(let items): return .array(items.map { fill($0, context) })
        case .object(let object): return .object(object.mapValues { fill($0, context) })
        default: return value
        }
    }
}

extension FeedItem {
    /// CometChat Campaigns' `NotificationFeedItem` as JSON (the WebSocket's `feed_item` and the API's item).
    public var json: JSONObject {
        var object: JSONObject = [
            "id": .string(id), "content": content, "metadata": .object(metadata), "tags": .array(tags.map(JSONValue.string)),
            "sender": .string(sender), "receiver": .string(receiver), "receiverType": .string(receiverType), "isRead": .bool(isRead),
            "sentAt": .string(WireTimestamp.format(sentAt)),
        ]
        // Absent fields are left out, as in the API's items.
        if let category { object["category"] = .string(category) }
        if let categoryId { object["categoryId"] = .string(categoryId) }
        if let channelId { object["channelId"] = .string(channelId) }
        if let campaignId { object["campaignId"] = .string(campaignId) }
        if let readAt { object["readAt"] = .string(WireTimestamp.format(readAt)) }
        if let deliveredAt { object["deliveredAt"] = .string(WireTimestamp.format(deliveredAt)) }
        if let pushNotificationId { object["pushNotificationId"] = .string(pushNotificationId) }
        return object
    }
}
