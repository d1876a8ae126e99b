import Foundation
import HeraldCore
import Logging
import SQLKit
import Synchronization

/// Cache changes between the Herald processes of one PostgreSQL database, over `LISTEN/NOTIFY`.
/// A process that wrote publishes what changed; every other process drops it and, for a strict
/// change, answers; the writer's call returns once every live process (heartbeat within
/// `liveWithin`) has answered, so no process serves a revoked key, a deleted token or a disabled
/// provider after the write returned. A process uses its caches only once it listens.
final class CacheBus: Sendable {
    static let channel = "herald_cache"
    static let ackChannel = "herald_cache_ack"

    let instance: String
    private let source: PostgresSource
    private let cache: StoreCache
    private let logger: Logger
    /// A process whose heartbeat is older is not waited for.
    let liveWithin: TimeInterval = 5
    /// How long a writer waits for the other processes before going on (and saying so).
    let ackTimeout: Duration = .seconds(3)

    private struct Waiting {
        var pending: Set<String>
        var continuation: CheckedContinuation<Void, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var sequence: UInt64 = 0
        var waiting: [UInt64: Waiting] = [:]
        var listening: Set<String> = []
    }

    private let state = Mutex(State())

    init(instance: String, source: PostgresSource, cache: StoreCache, logger: Logger) {
        self.instance = instance
        self.source = source
        self.cache = cache
        self.logger = logger
    }

    /// Both channels are listened to: the caches may be used.
    var isListening: Bool { state.withLock { $0.listening.count == 2 } }

    /// Returns once both channels are listened to, or after `limit`.
    private func untilListening(within limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while !isListening, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Tells the other processes, in as many notices as it takes (``CacheChange/notices``, sent
    /// together: a process that does not answer holds the writer one `ackTimeout`, not one a
    /// notice); for a strict change, waits until the live ones dropped each.
    func publish(_ change: CacheChange) async {
        let notices = change.notices
        guard notices.count > 1 else {
            if let notice = notices.first { await publishOne(notice) }
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for notice in notices { group.addTask { await self.publishOne(notice) } }
        }
    }

    /// Tells the other processes of changes no process confirms, all in one statement (a fan-out
    /// commit's unread counts: a notice per 200 to 700 users, as long as their uids). A notice
    /// that fails is not retried: the counts it names stay as cached until their users change
    /// again, as when a notice is lost.
    func publishUnconfirmed(_ changes: [CacheChange]) async {
        let notices = changes.flatMap(\.parts).map(unconfirmedNotice)
        guard !notices.isEmpty else { return }
        let calls = notices.map { notice -> SQLQueryString in "pg_notify(\(bind: Self.channel), \(bind: notice))" }
        try? await source.write { db in try await db.raw("SELECT " + calls.joined(separator: ", ")).perform() }
    }

    private func publishOne(_ change: CacheChange) async {
        let sequence = nextSequence()
        let waitFor: Set<String>
        if change.strict {
            waitFor = (try? await liveInstances()) ?? []
        } else {
            waitFor = []
        }
        let message = Self.message(instance: instance, sequence: sequence, confirm: change.strict && !waitFor.isEmpty, change)
        guard !waitFor.isEmpty else {
            try? await notify(Self.channel, message)
            return
        }
        // The answers come on the ack channel: a process that has just opened the database (a
        // CLI command) listens before it asks, or it would not hear them.
        await untilListening(within: ackTimeout)
        await withCheckedContinuation { continuation in
            state.withLock { $0.waiting[sequence] = Waiting(pending: waitFor, continuation: continuation) }
            let timer = Task {
                try? await notify(Self.channel, message)
                try? await Task.sleep(for: ackTimeout)
                guard !Task.isCancelled, let late = finish(sequence) else { return }
                logger.warning(
                    "processes did not confirm a cache change in time",
                    metadata: ["processes": "\(late.sorted())", "change": "\(change.text.prefix(80))"]
                )
            }
            state.withLock { $0.waiting[sequence]?.timer = timer }
        }
    }

    /// The notice of a change no process confirms (``CacheChange/strict`` is false), for a writer
    /// that sends it on ``channel`` with `pg_notify` in the statement of its write: one round
    /// trip, and the notice goes out only if the write commits.
    func unconfirmedNotice(_ change: CacheChange) -> String {
        precondition(!change.strict, "a strict change waits for the processes' answers")
        return Self.message(instance: instance, sequence: nextSequence(), confirm: false, change)
    }

    /// `instance sequence confirm change`: who wrote, which of their changes, whether to answer.
    private static func message(instance: String, sequence: UInt64, confirm: Bool, _ change: CacheChange) -> String {
        "\(instance) \(sequence) \(confirm ? 1 : 0) \(change.text)"
    }

    private func nextSequence() -> UInt64 {
        state.withLock { state in
            state.sequence += 1
            return state.sequence
        }
    }

    /// Listens to both channels until cancelled.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.listen(Self.channel, self.received) }
            group.addTask { await self.listen(Self.ackChannel, self.acknowledged) }
        }
    }

    private func listen(_ channel: String, _ handler: @escaping @Sendable (String) async -> Void) async {
        while !Task.isCancelled {
            do {
                try await source.listen(channel: channel, onListening: { _ = self.state.withLock { $0.listening.insert(channel) } }, handler: handler)
            } catch {
                guard !Task.isCancelled else { return }
                logger.warning("cache channel lost; caches are dropped and listened again", metadata: ["channel": "\(channel)", "error": "\(error)"])
            }
            // Changes may have been missed while not listening: start again from empty caches.
            _ = state.withLock { $0.listening.remove(channel) }
            cache.apply(.credentials)
            cache.apply(.allUsers(appId: ""))
            cache.apps.forgetAll()
            cache.providers.forgetAll()
            cache.templates.forgetAll()
            cache.records.forgetAll()
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func received(_ message: String) async {
        let parts = message.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] != instance, let change = CacheChange(text: String(parts[3])) else { return }
        cache.apply(change)
        if parts[2] == "1" { try? await notify(Self.ackChannel, "\(parts[0]) \(parts[1]) \(instance)") }
    }

    private func acknowledged(_ message: String) async {
        let parts = message.split(separator: " ")
        guard parts.count == 3, parts[0] == instance, let sequence = UInt64(parts[1]) else { return }
        let done = state.withLock { state -> Waiting? in
            guard var waiting = state.waiting[sequence] else { return nil }
            waiting.pending.remove(String(parts[2]))
            guard waiting.pending.isEmpty else {
                state.waiting[sequence] = waiting
                return nil
            }
            state.waiting[sequence] = nil
            return waiting
        }
        done?.continuation.resume()
        done?.timer?.cancel()
    }

    /// Ends a wait (its time ran out); the processes that had not answered.
    private func finish(_ sequence: UInt64) -> Set<String>? {
        let waiting = state.withLock { $0.waiting.removeValue(forKey: sequence) }
        waiting?.continuation.resume()
        return waiting?.pending
    }

    private func liveInstances() async throws -> Set<String> {
        let since = Date().addingTimeInterval(-liveWithin)
        let me = instance
        return try await source.read { db in try await SQLStore.liveInstances(db, since: since, except: me) }
    }

    private func notify(_ channel: String, _ payload: String) async throws {
        try await source.write { db in try await db.raw("SELECT pg_notify(\(bind: channel), \(bind: payload))").perform() }
    }
}
