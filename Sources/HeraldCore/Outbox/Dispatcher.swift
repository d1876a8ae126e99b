import Foundation
import HeraldModels

/// Sends claimed deliveries and decides what becomes of each: delivered; tried again later with
/// exponential backoff and jitter, never before the provider's Retry-After; dropped as expired
/// when it would arrive too late; failed with the provider's reason — pruning tokens the provider
/// declares dead, and setting aside credentials it declares broken.
public struct Dispatcher: Sendable {
    let ports: EnginePorts
    let context: EngineContext
    let clock: any WallClock
    public var retry: RetryPolicy

    public init(ports: EnginePorts, context: EngineContext, clock: any WallClock = SystemWallClock(), retry: RetryPolicy = .init()) {
        self.ports = ports
        self.context = context
        self.clock = clock
        self.retry = retry
    }

    /// Sends deliveries claimed from the outbox (retries, and pushes whose sender died) and
    /// records what became of them; returns the updates recorded.
    @discardableResult
    public func dispatchAndRecord(_ deliveries: [Delivery]) async throws -> [DeliveryUpdate] {
        let updates = await send(deliveries)
        try await ports.deliveries.updateDeliveries(updates)
        return updates
    }

    /// Sends the deliveries, grouped by credential, each group as one batch; returns what became
    /// of each. `events` are the deliveries' events already resolved (others are loaded);
    /// `countsAreCurrent` says the deliveries' badges and unread counts were just worked out
    /// (else they are read again: a retry shows the count the user has now).
    public func send(_ deliveries: [Delivery], events: [String: ResolvedEvent] = [:], countsAreCurrent: Bool = false) async -> [DeliveryUpdate] {
        guard !deliveries.isEmpty else { return [] }
        let groups = Dictionary(grouping: deliveries) { $0.appId + "\u{0}" + ($0.providerId ?? "") }
        if groups.count == 1 {
            return await send(credentialBatch: deliveries, events: events, countsAreCurrent: countsAreCurrent)
        }
        return await withTaskGroup(of: [DeliveryUpdate].self) { group in
            for batch in groups.values {
                group.addTask { await send(credentialBatch: batch, events: events, countsAreCurrent: countsAreCurrent) }
            }
            var updates: [DeliveryUpdate] = []
            for await part in group { updates += part }
            return updates
        }
    }

    /// Deliveries of one app through one provider.
    func send(credentialBatch deliveries: [Delivery], events: [String: ResolvedEvent], countsAreCurrent: Bool) async -> [DeliveryUpdate] {
        let now = clock.now()
        let first = deliveries[0]
        let snapshot: AppSnapshot?
        do {
            snapshot = try await context.app(first.appId)
        } catch {
            return deliveries.map { later($0, reason: "the app could not be read: \(error)", retryAfter: nil, now: now) }
        }
        guard let snapshot, let providerId = first.providerId, let credential = snapshot.providers[providerId] else {
            return deliveries.map { final($0, .failed, reason: "provider_deleted", now: now) }
        }
        guard !credential.isBroken else {
            return deliveries.map { final($0, .failed, reason: "credential_broken: " + (credential.config.brokenReason ?? ""), now: now) }
        }
        guard credential.config.enabled else { return deliveries.map { final($0, .failed, reason: "provider_disabled", now: now) } }

        var updates: [DeliveryUpdate] = []
        var sendable: [(Delivery, OutgoingPush)] = []
        // A retry's badge is the unread count now, not when the push was decided.
        var unread: [String: [String: Int]]?
        if !countsAreCurrent, snapshot.settings.badge || snapshot.settings.includeConversationUnread {
            unread = (try? await ports.unread.unreadCounts(appId: first.appId, uids: Array(Set(deliveries.map(\.uid))))) ?? [:]
        }
        var texts = TextCache()
        let itemIds = deliveries.lazy.map(\.eventId).filter(FeedItem.isItemId)
        var items: [String: FeedItem] = [:]
        if !itemIds.isEmpty, let feed = ports.feed {
            do {
                items = try await feed.feedItems(appId: first.appId, ids: Array(Set(itemIds)))
            } catch {
                return deliveries.map { later($0, reason: "the feed items could not be read: \(error)", retryAfter: nil, now: now) }
            }
        }
        for var delivery in deliveries {
            if let unread, delivery.badge != nil, !FeedItem.isItemId(delivery.eventId) { delivery.badge = unread[delivery.uid]?.values.reduce(0, +) ?? delivery.badge }
            if let expiresAt = delivery.expiresAt, expiresAt <= now {
                updates.append(final(delivery, .expired, reason: "expired before it could be delivered", now: now))
                ports.observer.attempted(provider: credential.kind.rawValue, outcome: "expired", reason: nil)
                continue
            }
            if FeedItem.isItemId(delivery.eventId) {
                guard let item = items[delivery.eventId], let platform = delivery.platform else {
                    updates.append(final(delivery, .failed, reason: "the feed item is gone", now: now))
                    continue
                }
                sendable.append((delivery, PushPayloads.campaign(item, token: delivery.target, platform: platform, badge: delivery.badge)))
                continue
            }
            var event = events[delivery.eventId]
            if event == nil {
                do {
                    event = try await context.resolvedEvent(appId: delivery.appId, eventId: delivery.eventId)
                } catch {
                    updates.append(final(delivery, .failed, reason: "the event could not be read: \(error)", now: now))
                    continue
                }
            }
            guard let event else {
                updates.append(final(delivery, .failed, reason: "the event is gone", now: now))
                continue
            }
            switch push(for: delivery, event: event, snapshot: snapshot, credential: credential, texts: &texts, unread: unread, now: now) {
            case .success(let push): sendable.append((delivery, push))
            case .failure(let problem): updates.append(final(delivery, .failed, reason: problem.reason, now: now))
            }
        }
        guard !sendable.isEmpty else { return updates }
        let results = await ports.gateway.send(sendable.map(\.1), credential: credential)
        // Outcomes, and the waits a provider asks for, count from when its answers arrived.
        let answeredAt = clock.now()
        var broken: String?
        var pruned = Set<String>()
        for ((delivery, _), result) in zip(sendable, results) {
            ports.observer.attempted(provider: credential.kind.rawValue, outcome: result.outcome.name, reason: result.reason)
            if result.latency > .zero { ports.observer.providerAnswered(provider: credential.kind.rawValue, after: result.latency) }
            let attempts = delivery.attempts + 1
            switch result.outcome {
            case .delivered:
                updates.append(DeliveryUpdate(id: delivery.id, status: .delivered, attempts: attempts, providerStatus: result.providerStatus,
                                              providerMessageId: result.providerMessageId, at: answeredAt))
            case .retryLater(let after):
                var next = delivery
                next.attempts = attempts
                updates.append(later(next, reason: result.reason ?? "retry later", retryAfter: after, providerStatus: result.providerStatus, now: answeredAt))
            case .tokenInvalid(let since, let hint):
                updates.append(DeliveryUpdate(id: delivery.id, status: .failed, reason: "token_invalid: " + (result.reason ?? "invalid") + (hint.map { " (\($0))" } ?? ""),
                                              attempts: attempts, providerStatus: result.providerStatus, at: answeredAt))
                if delivery.channel == .push, pruned.insert(delivery.target).inserted,
                   (try? await ports.tokens.prune(appId: delivery.appId, token: delivery.target, reason: result.reason ?? "invalid",
                                                  hint: hint, invalidSince: since, at: answeredAt)) == true {
                    ports.observer.tokenPruned(delivery.target, appId: delivery.appId, providerId: credential.providerId, reason: result.reason ?? "invalid")
                }
            case .credentialBroken:
                broken = result.reason ?? "the provider refused the credential"
                updates.append(DeliveryUpdate(id: delivery.id, status: .failed, reason: "credential_broken: " + (result.reason ?? ""),
                                              attempts: attempts, providerStatus: result.providerStatus, at: answeredAt))
            case .failed:
                updates.append(DeliveryUpdate(id: delivery.id, status: .failed, reason: result.reason ?? "failed", attempts: attempts,
                                              providerStatus: result.providerStatus, at: answeredAt))
            }
        }
        if let broken {
            try? await ports.providers.markProviderBroken(appId: credential.appId, providerId: credential.providerId, reason: broken,
                                                          at: answeredAt, version: credential.updatedAt)
            await context.invalidate(appId: credential.appId)
            ports.observer.credentialSetAside(appId: credential.appId, providerId: credential.providerId, reason: broken)
        }
        let failures = Self.failures(in: updates)
        if !failures.isEmpty {
            ports.observer.batchHadFailures(failures, appId: credential.appId, providerId: credential.providerId, provider: credential.kind.rawValue)
        }
        return updates
    }

    /// A batch's pushes that did not get through, counted by outcome and reason (the reason's
    /// code, without the provider's free text after it).
    static func failures(in updates: [DeliveryUpdate]) -> [BatchFailure] {
        var counts: [BatchFailure: Int] = [:]
        for update in updates {
            let outcome: String
            switch update.status {
            case .failed: outcome = "failed"
            case .expired: outcome = "expired"
            case .pending: outcome = "retrying"
            default: continue
            }
            let reason = (update.reason ?? "").prefix { $0 != ":" && $0 != "(" }.trimmingCharacters(in: .whitespaces)
            counts[BatchFailure(outcome: outcome, reason: reason, count: 0), default: 0] += 1
        }
        return counts.map { BatchFailure(outcome: $0.key.outcome, reason: $0.key.reason, count: $0.value) }
            .sorted { ($0.outcome, $0.reason) < ($1.outcome, $1.reason) }
    }

    struct Problem: Error {
        var reason: String
    }

    /// The push for one delivery, built from its event (so a retry after a restart sends what
    /// the first attempt would have).
    func push(for delivery: Delivery, event: ResolvedEvent, snapshot: AppSnapshot, credential: ProviderCredential, texts: inout TextCache,
              unread: [String: [String: Int]]?, now: Date) -> Result<OutgoingPush, Problem> {
        if case .session(let session) = event.event.body {
            guard let platform = delivery.platform,
                  let push = PushPayloads.sessionEnded(session, device: .init(token: delivery.target, providerId: credential.providerId, platform: platform),
                                                       expiresAt: delivery.expiresAt) else {
                return .failure(Problem(reason: "no silent push for this token"))
            }
            return .success(push)
        }
        let text = texts.text(event, locale: delivery.locale, snapshot: snapshot)
        let conversationUnread = delivery.unread.map { unread?[delivery.uid]?[event.conversationId] ?? $0 }
        let push = PushContext(event: event, text: text, settings: snapshot.settings, badge: delivery.badge, unread: conversationUnread,
                               expiresAt: delivery.expiresAt, now: now)
        switch delivery.channel {
        case .webhook:
            return .success(PushPayloads.webhook(push, uid: delivery.uid))
        case .push:
            guard let platform = delivery.platform else { return .failure(Problem(reason: "the delivery has no platform")) }
            guard platform.tokenKind.providerKind == credential.kind else {
                return .failure(Problem(reason: "provider \(credential.providerId) is \(credential.kind.rawValue), not \(platform.tokenKind.providerKind.rawValue)"))
            }
            return .success(PushPayloads.push(push, token: delivery.target, platform: platform, route: delivery.route ?? .alert, provider: credential.config))
        case .inapp, .none:
            return .failure(Problem(reason: "not a push"))
        }
    }

    /// A retry later, or the end when attempts ran out or the next one would be too late.
    func later(_ delivery: Delivery, reason: String, retryAfter: Duration?, providerStatus: Int? = nil, now: Date) -> DeliveryUpdate {
        guard delivery.attempts < retry.maxAttempts else {
            return DeliveryUpdate(id: delivery.id, status: .failed, reason: "gave up after \(delivery.attempts) attempts: \(reason)",
                                  attempts: delivery.attempts, providerStatus: providerStatus, at: now)
        }
        let next = now.addingTimeInterval(retry.delay(afterAttempts: max(1, delivery.attempts), retryAfter: retryAfter))
        if let expiresAt = delivery.expiresAt, next >= expiresAt {
            return DeliveryUpdate(id: delivery.id, status: .expired, reason: "expired while waiting to retry: \(reason)", attempts: delivery.attempts,
                                  providerStatus: providerStatus, at: now)
        }
        return DeliveryUpdate(id: delivery.id, status: .pending, reason: reason, attempts: delivery.attempts, nextAttemptAt: next,
                              providerStatus: providerStatus, at: now)
    }

    func final(_ delivery: Delivery, _ status: DeliveryStatus, reason: String, now: Date) -> DeliveryUpdate {
        DeliveryUpdate(id: delivery.id, status: status, reason: reason, attempts: delivery.attempts, at: now)
    }
}
