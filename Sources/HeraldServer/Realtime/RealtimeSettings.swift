import Foundation
import HeraldCore
import HeraldModels
import Logging
import Metrics
import NIOConcurrencyHelpers

/// Timings of the real-time channel.
public struct RealtimeSettings: Sendable {
    /// How often the server pings each socket; a socket that does not answer one ping before the
    /// next is closed, so a dead connection is noticed within two periods (30 s by default).
    public var pingInterval: Duration = .seconds(15)
    /// How often this process says it is alive (PostgreSQL): its presence, and the claims it
    /// holds, which other processes take over when its heartbeat stops (``claimTimeout``).
    public var heartbeatInterval: Duration = .seconds(1)
    /// How long after a process's last heartbeat its claims are taken over.
    public var claimTimeout: Duration = .seconds(5)
    /// How long a silent process's sessions still count (PostgreSQL): a killed process's users
    /// are offline within this long, plus one heartbeat.
    public var instanceTimeout: Duration = .seconds(10)

    /// How often sockets of sessions that expired are closed: a socket outlives its session by
    /// at most this long.
    public var expirySweepInterval: Duration = .seconds(1)

    public init() {}
}
