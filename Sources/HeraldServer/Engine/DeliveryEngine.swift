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
    public let snapshots: AppSnapshots
    /// Closes notice windows (coalesced clears, burst summaries) whose time is up.
    public let windows: WindowSweeper
    let ports: EnginePorts
    let clock: any WallClock
    let wakeup: Wakeup

    /// Who this process claims work as.
    public let claims: ClaimPolicy

    /// - Parameter handOff: where the intake hands its events to this process's fan-out.
    init(ports: EnginePorts, clock: any WallClock, claims: ClaimPolicy, handOff: EventHandOff) {
        self.ports = ports
        self.clock = clock
        self.claims = claims
        self.snapshots = AppSnapshots(ports: ports)
        self.dispatcher = Dispatcher(ports: ports, snapshots: snapshots, clock: clock)
        let wakeup = Wakeup()
        self.wakeup = wakeup
        self.fanOut = FanOut(
            ports: ports,
            snapshots: snapshots,
            dispatcher: dispatcher,
            handOff: handOff,
            clock: clock,
            claims: claims,
            nextPagesWentOn: { await wakeup.poke() }
        )
        self.windows = WindowSweeper(ports: ports, snapshots: snapshots, claims: claims)
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
        try await windows.sweep(now: due)
        let claimed = try await ports.deliveries.claimDeliveries(limit: 1_000, now: due, claim: claims.claim(at: due))
        if !claimed.isEmpty {
            try await dispatcher.retry(claimed)
            sent += claimed.count
        }
        return sent
    }
}
