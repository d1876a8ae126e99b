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
    public let snapshots: AppSnapshotCache
    let ports: EnginePorts
    let clock: any WallClock
    let wakeup = Wakeup()

    init(ports: EnginePorts, clock: any WallClock, lease: TimeInterval = 60) {
        self.ports = ports
        self.clock = clock
        self.snapshots = AppSnapshotCache(ports: ports)
        self.dispatcher = Dispatcher(ports: ports, snapshots: snapshots, clock: clock)
        self.fanOut = FanOut(ports: ports, snapshots: snapshots, dispatcher: dispatcher, clock: clock, lease: lease)
    }

    /// Events were stored: fan them out now rather than at the next poll.
    public func eventsAccepted() async {
        await wakeup.poke()
    }

    /// One round of everything, for tests and tools that drive the engine by hand: fans out and
    /// sends what is waiting, and sends what is due. Returns how many pushes were attempted.
    @discardableResult
    public func drain(now: Date? = nil) async throws -> Int {
        var sent = 0
        while true {
            let result = try await fanOut.runOnce(limit: 200, claim: true)
            sent += result.sent
            if result.events == 0 { break }
        }
        let due = now ?? clock.now()
        let claimed = try await ports.deliveries.claimDeliveries(limit: 1_000, now: due, leaseUntil: due.addingTimeInterval(fanOut.lease))
        if !claimed.isEmpty {
            try await dispatcher.retry(claimed)
            sent += claimed.count
        }
        return sent
    }
}

/// Runs the engine for the life of the server: fan-out workers (woken when events arrive), each
/// deciding, sending and recording a batch at a time, and the outbox loop for retries and for
/// pushes whose process died before recording them.
struct DeliveryEngineService: Service {
    let engine: DeliveryEngine
    let logger: Logger
    /// Batches in flight at once: while one waits for its provider, the next is decided.
    var workers = 4

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for _ in 0..<workers { group.addTask { await fanOutLoop() } }
                group.addTask { await outboxLoop() }
                group.addTask { await engine.fanOut.renewLeases() }
            }
        }
    }

    func fanOutLoop() async {
        while !Task.isCancelled {
            do {
                let result = try await engine.fanOut.runOnce(limit: 250)
                if result.events == 0 { await engine.wakeup.wait(timeout: .milliseconds(250)) }
            } catch where !Task.isCancelled {
                // The batch stays claimed; its lease runs out and a worker takes it over.
                logger.error("fan-out failed", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            } catch {
                return
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
                    try await engine.dispatcher.retry(claimed)
                    continue
                }
                if ContinuousClock.now - reported > .seconds(5) {
                    reported = .now
                    // One count of the outbox, by app: the total is their sum; every app has its
                    // gauge, an empty outbox reading 0.
                    let byApp = try await engine.ports.deliveries.outboxDepthByApp()
                    Gauge(label: "herald_outbox_depth").record(byApp.values.reduce(0, +))
                    for appId in Set(try await engine.ports.apps.apps().map(\.id)).union(byApp.keys) {
                        Gauge(label: "herald_outbox_depth_by_app", dimensions: [("app", appId)]).record(byApp[appId] ?? 0)
                    }
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
            var measured = ContinuousClock.now - .seconds(3_600)
            while !Task.isCancelled {
                do {
                    try await services.expireSessions()
                    if ContinuousClock.now - measured > .seconds(60) {
                        measured = .now
                        try await reportCertificateExpiry()
                    }
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

extension MaintenanceService {
    /// `herald_apns_certificate_expiry_seconds{app,provider}`: how long each APNs certificate has
    /// left (negative once expired), for an alert well before Apple starts refusing it.
    func reportCertificateExpiry() async throws {
        let now = services.clock.now()
        for app in try await services.store.apps() {
            for credential in try await services.store.providers(appId: app.id) {
                guard let expires = credential.config.settings.apns?.certificateExpiresAt else { continue }
                Gauge(label: "herald_apns_certificate_expiry_seconds", dimensions: [("app", app.id), ("provider", credential.providerId)])
                    .record(expires.timeIntervalSince(now))
            }
        }
    }
}

/// Sends campaigns when they fall due: each process polls, one claims a campaign and sends it a
/// batch at a time; if it dies, its lease runs out and another process carries on from its cursor.
struct CampaignService: Service {
    let services: HeraldServices
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if try await services.campaigns.runDue() {
                        await services.engine.eventsAccepted()
                        continue
                    }
                } catch where !Task.isCancelled {
                    logger.error("campaign failed", metadata: ["error": "\(error)"])
                } catch {
                    return
                }
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }
}
