import Foundation
import HeraldModels

/// Sends prepared pushes and decides what becomes of each: delivered; tried again later with
/// exponential backoff and jitter, never before the provider's Retry-After; dropped as expired
/// when it would arrive too late; failed with the provider's reason — pruning tokens the provider
/// declares dead, and setting aside credentials it declares broken.
public struct Dispatcher: Sendable {
    let ports: EnginePorts
    let snapshots: AppSnapshots
    let events: ResolvedEventCache
    let clock: any WallClock
    public var retry: RetryPolicy

    public init(ports: EnginePorts, snapshots: AppSnapshots, clock: any WallClock = SystemWallClock(), retry: RetryPolicy = .init()) {
        self.ports = ports
        self.snapshots = snapshots
        self.events = ResolvedEventCache(ports: ports)
        self.clock = clock
        self.retry = retry
    }

    /// Sends the pushes, grouped by credential, each group as one batch, and returns what became
    /// of each. `snapshots` hold the apps' credentials.
    public func send(_ pushes: [PreparedPush], snapshots: [String: AppSnapshot]) async -> [DeliveryUpdate] {
        let batches = Self.byCredential(pushes)
        return await withTaskGroup(of: [DeliveryUpdate].self) { group in
            for (key, batch) in batches {
                group.addTask { await send(batch, through: snapshots[key.appId]?.providers[key.providerId ?? ""]) }
            }
            var updates: [DeliveryUpdate] = []
            for await part in group { updates += part }
            return updates
        }
    }

    /// One app's pushes through one credential: those still worth sending go out together, and
    /// each answer becomes an update and, maybe, a side effect.
    func send(_ pushes: [PreparedPush], through credential: ProviderCredential?) async -> [DeliveryUpdate] {
        let now = clock.now()
        guard let credential else { return pushes.map { .ended($0.delivery, .failed, .providerDeleted, at: now) } }
        let (due, expired) = Self.splitExpired(pushes, at: now)
        if !expired.isEmpty { ports.observer.attempted(provider: credential.kind.rawValue, outcome: "expired", reason: nil, count: expired.count) }
        guard !due.isEmpty else { return expired }
        let results = await ports.gateway.send(due.map(\.push), credential: credential)
        // Outcomes, and the waits a provider asks for, count from when its answers arrived.
        let answeredAt = clock.now()
        observe(results, provider: credential.kind.rawValue)
        // By index: zipping would copy each push whole (its payload too) to read its delivery.
        let verdicts = zip(due.indices, results).map { SendVerdict.of($1, for: due[$0].delivery, retry: retry, at: answeredAt) }
        await apply(verdicts.compactMap(\.effect), credential: credential, at: answeredAt)
        let updates = expired + verdicts.map(\.update)
        let failures = Self.failures(in: updates)
        if !failures.isEmpty {
            ports.observer.batchHadFailures(failures, appId: credential.appId, providerId: credential.providerId, provider: credential.kind.rawValue)
        }
        return updates
    }

    /// The pushes by the credential that sends them. Mostly one credential: then the batch is the
    /// array itself, not copied push by push.
    static func byCredential(_ pushes: [PreparedPush]) -> [CredentialKey: [PreparedPush]] {
        let key = { (push: PreparedPush) in CredentialKey(appId: push.delivery.appId, providerId: push.delivery.providerId) }
        guard let first = pushes.first.map(key) else { return [:] }
        if pushes.allSatisfy({ key($0) == first }) { return [first: pushes] }
        return Dictionary(grouping: pushes, by: key)
    }

    /// Pushes still worth sending, and updates for those that expired before they could be.
    static func splitExpired(_ pushes: [PreparedPush], at now: Date) -> (due: [PreparedPush], expired: [DeliveryUpdate]) {
        // Mostly none expired: then the pushes go on as they are, not copied one by one.
        guard pushes.contains(where: { push in push.delivery.expiresAt.map { $0 <= now } ?? false }) else { return (pushes, []) }
        var due: [PreparedPush] = []
        var expired: [DeliveryUpdate] = []
        for push in pushes {
            if let expiresAt = push.delivery.expiresAt, expiresAt <= now {
                expired.append(.ended(push.delivery, .expired, .expired, at: now))
            } else {
                due.append(push)
            }
        }
        return (due, expired)
    }

    /// The batch's verdicts counted once per kind; each answer's latency on its own (a histogram).
    func observe(_ results: [PushResult], provider: String) {
        var verdicts = Tally<Verdict>()
        for index in results.indices {
            verdicts.add(Verdict(outcome: results[index].outcome.name, reason: results[index].reason))
            if results[index].latency > .zero { ports.observer.providerAnswered(provider: provider, after: results[index].latency) }
        }
        for (verdict, count) in verdicts.counts {
            ports.observer.attempted(provider: provider, outcome: verdict.outcome, reason: verdict.reason, count: count)
        }
    }

    /// A provider's verdict as counted.
    struct Verdict: Equatable, Sendable {
        var outcome: String
        var reason: String?
    }

    /// Carries out what the answers asked for: each dead token removed once, and the credential
    /// set aside (once) if the provider refused it.
    func apply(_ effects: [SendVerdict.SideEffect], credential: ProviderCredential, at date: Date) async {
        var pruned = Set<String>()
        var broken: String?
        for effect in effects {
            switch effect {
            case .pruneToken(let token, let reason, let hint, let since):
                guard pruned.insert(token).inserted,
                    (try? await ports.tokens.prune(appId: credential.appId, token: token, reason: reason, hint: hint, invalidSince: since, at: date))
                        == true
                else { continue }
                ports.observer.tokenPruned(token, appId: credential.appId, providerId: credential.providerId, reason: reason)
            case .setCredentialAside(let reason):
                broken = reason
            }
        }
        guard let broken else { return }
        try? await ports.providers.markProviderBroken(
            appId: credential.appId,
            providerId: credential.providerId,
            reason: broken,
            at: date,
            version: credential.updatedAt
        )
        ports.observer.credentialSetAside(appId: credential.appId, providerId: credential.providerId, reason: broken)
    }

    /// A batch's pushes that did not get through, counted by outcome and reason code.
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
            counts[BatchFailure(outcome: outcome, reason: update.failure?.code ?? "", count: 0), default: 0] += 1
        }
        return counts.map { BatchFailure(outcome: $0.key.outcome, reason: $0.key.reason, count: $0.value) }
            .sorted { ($0.outcome, $0.reason) < ($1.outcome, $1.reason) }
    }

    struct CredentialKey: Hashable {
        var appId: String
        var providerId: String?
    }
}
