import Foundation
import HeraldCore
import Logging
import Metrics
import ServiceLifecycle

/// The engine's moving parts in one process: the fan-out, the dispatcher and the signal that an
/// event was accepted.
public struct DeliveryEngine: Sendable {
    public let fanOut: FanOut
    public let dispatcher: Dispatcher
    public let context: EngineContext
    let ports: EnginePorts
    let clock: any WallClock
    let wakeup = Wakeup()

    init(ports: EnginePorts, clock: any WallClock, lease: TimeInterval = 60) {
        self.ports = ports
        self.clock = clock
        self.context = EngineContext(ports: ports)
        self.fanOut = FanOut(ports: ports, context: context, clock: clock, lease: lease)
        self.dispatcher = Dispatcher(ports: ports, context: context, clock: clock)
    }

    /// Events were stored: fan them out now rather than at the next poll.
    public func eventsAccepted() async {
        await wakeup.poke()
    }

    /// One round of everything, for tests and tools that drive the engine by hand: fans out what
    /// is waiting, sends it, and sends what is due. Returns how many deliveries were sent.
    @discardableResult
    public func drain(now: Date? = nil) async throws -> Int {
        var sent = 0
        while true {
            let result = try await fanOut.runOnce(limit: 200)
            if !result.toSend.isEmpty {
                try await dispatcher.dispatchAndRecord(result.toSend)
                sent += result.toSend.count
            }
            if result.events == 0 { break }
        }
        let due = now ?? clock.now()
        let claimed = try await ports.deliveries.claimDeliveries(limit: 1_000, now: due, leaseUntil: due.addingTimeInterval(fanOut.lease))
        if !claimed.isEmpty {
            try await dispatcher.dispatchAndRecord(claimed)
            sent += claimed.count
        }
        return sent
    }
}

/// Runs the engine for the life of the server: the fan-out loop (woken when events arrive),
/// dispatch of what it decides (a few batches in flight at once), and the outbox loop for
/// retries and for pushes whose process died before sending them.
struct DeliveryEngineService: Service {
    let engine: DeliveryEngine
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await fanOutLoop() }
                group.addTask { await outboxLoop() }
            }
        }
    }

    func fanOutLoop() async {
        let limiter = Limiter(4)
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                do {
                    let result = try await engine.fanOut.runOnce(limit: 250)
                    if !result.toSend.isEmpty {
                        await limiter.acquire()
                        group.addTask {
                            do {
                                try await engine.dispatcher.dispatchAndRecord(result.toSend)
                            } catch where !Task.isCancelled {
                                // The deliveries stay claimed; their lease runs out and the outbox sends them.
                                logger.error("recording deliveries failed", metadata: ["error": "\(error)"])
                            } catch {}
                            await limiter.release()
                        }
                    }
                    if result.events == 0 { await engine.wakeup.wait(timeout: .milliseconds(250)) }
                } catch where !Task.isCancelled {
                    logger.error("fan-out failed", metadata: ["error": "\(error)"])
                    try? await Task.sleep(for: .seconds(1))
                } catch {
                    return
                }
            }
        }
    }

    func outboxLoop() async {
        var reported = ContinuousClock.now - .seconds(60)
        while !Task.isCancelled {
            do {
                let now = engine.clock.now()
                let claimed = try await engine.ports.deliveries.claimDeliveries(limit: 500, now: now, leaseUntil: now.addingTimeInterval(engine.fanOut.lease))
                if !claimed.isEmpty {
                    try await engine.dispatcher.dispatchAndRecord(claimed)
                    continue
                }
                if ContinuousClock.now - reported > .seconds(5) {
                    reported = .now
                    Gauge(label: "herald_outbox_depth").record(try await engine.ports.deliveries.outboxDepth())
                    Gauge(label: "herald_events_pending").record(try await engine.ports.events.pendingEventCount())
                }
                // Sleep until the next retry is due, but wake now and then for takeovers.
                let due = try await engine.ports.deliveries.nextDueTime().map { $0.timeIntervalSince(engine.clock.now()) } ?? 1
                try await Task.sleep(for: .milliseconds(Int64(min(1, max(0.02, due)) * 1000)))
            } catch where !Task.isCancelled {
                logger.error("outbox failed", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            } catch {
                return
            }
        }
    }
}

/// Housekeeping: the delivery log kept only for each app's retention period; sessions that
/// expire logged out (their devices told by a silent push, their sockets closed).
struct MaintenanceService: Service {
    let services: HeraldServices
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var purged = ContinuousClock.now - .seconds(3_600)
            while !Task.isCancelled {
                do {
                    try await services.expireSessions()
                    if ContinuousClock.now - purged > .seconds(3_600) {
                        purged = .now
                        for app in try await services.store.apps() {
                            let before = Date().addingTimeInterval(-Double(app.settings.retentionDays) * 86_400)
                            _ = try await services.store.purge(appId: app.id, before: before)
                        }
                    }
                } catch where !Task.isCancelled {
                    logger.warning("maintenance failed", metadata: ["error": "\(error)"])
                } catch {
                    return
                }
                try? await Task.sleep(for: .seconds(15))
            }
        }
    }
}
