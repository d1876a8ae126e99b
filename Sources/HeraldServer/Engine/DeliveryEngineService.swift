import Foundation
import HeraldCore
import Logging
import Metrics
import ServiceLifecycle

/// Runs the engine for the life of the server: fan-out workers (woken when events arrive), each
/// deciding, sending and recording a batch at a time, and the outbox loop for retries and for
/// pushes whose process died before recording them.
///
/// Starting, it takes over the work of processes that are gone: on SQLite (one server owns the
/// file) all of it at once; on PostgreSQL that of processes whose heartbeat stopped, checked
/// every few seconds for as long as it runs. Stopping gracefully, it takes no new work, finishes
/// the batches in hand (recording them) within `drainLimit`, and hands on every claim it still
/// holds, so that a restart delays nothing and sends nothing twice.
struct DeliveryEngineService: Service {
    let engine: DeliveryEngine
    let logger: Logger
    /// Several processes share the database (PostgreSQL): watch for the claims of dead ones.
    var shared: Bool
    /// How long after a process's last heartbeat its claims are taken over (PostgreSQL).
    var claimTimeout: Duration = .seconds(5)
    /// How long a graceful stop waits for the batches in hand.
    var drainLimit: Duration = .seconds(15)
    /// Batches in flight at once: while some wait for their provider's answers or their commit,
    /// the others are decided. On SQLite eight keep two cores busy (four left them idle between
    /// commits: 1:1 messages ~17,900 → ~19,300 pushes/s). On PostgreSQL eight sent no more in
    /// `run-all.sh` and slowed a group of 10,000 (0.73 → 0.81 s, three runs each): four there.
    var workers: Int { shared ? 4 : 8 }
    /// Events (pages of events) a fan-out batch takes at most. Under load, larger batches mean
    /// fewer commits, and each commit writes the pages it touched once (SQLite's WAL); when
    /// events arrive one at a time, batches stay as small as what waits.
    var batchLimit = 1_000
    /// Outbox batches in flight at once (campaign pushes, retries): while one waits for its
    /// provider's answers, the next is claimed and built.
    var outboxWorkers = 2

    func run() async throws {
        await takeOverAbandonedClaims()
        let stopping = StopSignal()
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await engine.fanOut.renewLeases() }
                if shared { group.addTask { await watchForDeadProcesses() } }
                // The workers run until told to stop; leases are renewed until they have.
                await withTaskGroup(of: Bool.self) { working in
                    for _ in 0..<workers {
                        working.addTask {
                            await fanOutLoop(until: stopping)
                            return true
                        }
                    }
                    for index in 0..<outboxWorkers {
                        working.addTask {
                            await outboxLoop(until: stopping, sweeping: index == 0)
                            return true
                        }
                    }
                    // Once stopping, the batches in hand have `drainLimit` to finish.
                    working.addTask {
                        await stopping.wait()
                        try? await Task.sleep(for: drainLimit)
                        return false
                    }
                    var running = workers + outboxWorkers
                    while running > 0, let workerEnded = await working.next() {
                        if workerEnded {
                            running -= 1
                        } else {
                            logger.warning("the engine's batches did not finish within the drain limit", metadata: ["limit": "\(drainLimit)"])
                            working.cancelAll()
                        }
                    }
                    working.cancelAll()
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            stopping.signal()
            Task { await engine.wakeup.poke() }
        }
        await handOnClaims()
    }

    func fanOutLoop(until stopping: StopSignal) async {
        while !stopping.isSignalled, !Task.isCancelled {
            do {
                let result = try await engine.fanOut.runOnce(limit: batchLimit)
                if result.events == 0 { await engine.wakeup.wait(timeout: .milliseconds(250)) }
            } catch  where !Task.isCancelled {
                // The batch stays claimed; its lease runs out (or its claims are handed on) and a worker takes it over.
                logger.error("fan-out failed", metadata: ["error": .error(error)])
                try? await Task.sleep(for: .seconds(1))
            } catch {
                return
            }
        }
    }

    /// - Parameter sweeping: this loop also closes due notice windows and reports the outbox's
    ///   depth (one loop of the process does).
    func outboxLoop(until stopping: StopSignal, sweeping: Bool) async {
        var reported = ContinuousClock.now - .seconds(60)
        var swept = ContinuousClock.now - .seconds(60)
        while !stopping.isSignalled, !Task.isCancelled {
            do {
                let now = engine.clock.now()
                // Notice windows whose time is up become deliveries due now, a few times a second.
                if sweeping, ContinuousClock.now - swept > .milliseconds(200) {
                    swept = .now
                    try await engine.windows.sweep(now: now)
                }
                let claimed = try await engine.ports.deliveries.claimDeliveries(limit: 500, now: now, claim: engine.claims.claim(at: now))
                if !claimed.isEmpty {
                    try await engine.dispatcher.retry(claimed)
                    continue
                }
                if sweeping, ContinuousClock.now - reported > .seconds(5) {
                    reported = .now
                    try await reportDepth()
                }
                // Sleep until the next retry is due, but wake now and then for takeovers (and to stop).
                let due = try await engine.ports.deliveries.nextDueTime().map { $0.timeIntervalSince(engine.clock.now()) } ?? 1
                await engine.wakeup.wait(timeout: .milliseconds(Int64(min(1, max(0.02, due)) * 1000)))
            } catch  where !Task.isCancelled {
                logger.error("outbox failed", metadata: ["error": .error(error)])
                try? await Task.sleep(for: .seconds(1))
            } catch {
                return
            }
        }
    }

    /// One count of the outbox, by app: the total is their sum; every app has its gauge, an
    /// empty outbox reading 0.
    func reportDepth() async throws {
        let byApp = try await engine.ports.deliveries.outboxDepthByApp()
        Gauge(label: "herald_outbox_depth").record(byApp.values.reduce(0, +))
        for appId in Set(try await engine.ports.apps.apps().map(\.id)).union(byApp.keys) {
            Gauge(label: "herald_outbox_depth_by_app", dimensions: [("app", appId)]).record(byApp[appId] ?? 0)
        }
        Gauge(label: "herald_events_pending").record(try await engine.ports.events.pendingEventCount())
    }

    /// At start: a server alone on its database (SQLite) takes over every claim it did not
    /// make, those of its predecessor; on a shared one, those of processes whose heartbeat stopped.
    func takeOverAbandonedClaims() async {
        let liveSince = shared ? engine.clock.now().addingTimeInterval(-claimTimeout.seconds) : nil
        await release("claims of processes that are gone taken over") {
            try await engine.ports.claims.releaseAbandonedClaims(liveSince: liveSince, except: engine.claims.owner)
        }
        await engine.wakeup.poke()
        engine.fanOut.handOff.notePending()
    }

    /// Every few seconds, the claims of processes whose heartbeat stopped are taken over.
    func watchForDeadProcesses() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: claimTimeout / 2)
            guard !Task.isCancelled else { return }
            let liveSince = engine.clock.now().addingTimeInterval(-claimTimeout.seconds)
            let released = await release("claims of a process that stopped taken over") {
                try await engine.ports.claims.releaseAbandonedClaims(liveSince: liveSince, except: engine.claims.owner)
            }
            if released { engine.fanOut.handOff.notePending() }
        }
    }

    /// At a graceful stop, after the batches in hand were recorded: what this process still
    /// holds (events waiting in the hand-off, deliveries and campaigns) becomes claimable at once.
    func handOnClaims() async {
        await release("claims handed on at a graceful stop") {
            try await engine.ports.claims.releaseClaims(of: engine.claims.owner)
        }
    }

    @discardableResult
    private func release(_ message: Logger.Message, _ body: () async throws -> ReleasedClaims) async -> Bool {
        do {
            let released = try await body()
            guard !released.isEmpty else { return false }
            logger.info(
                message,
                metadata: ["events": "\(released.events)", "deliveries": "\(released.deliveries)", "campaigns": "\(released.campaigns)"]
            )
            return true
        } catch {
            logger.warning("claims could not be handed on", metadata: ["error": .error(error)])
            return false
        }
    }
}
