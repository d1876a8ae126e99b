import Foundation
import HeraldCore
import Logging
import Metrics
import ServiceLifecycle

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
