import Foundation

/// Claims handed on without waiting for their leases to run out: by a process that stops, and
/// for a process that died.
public protocol ClaimRepository: Sendable {
    /// Makes every claim `owner` holds claimable at once: a process that stops hands on what it
    /// did not finish.
    func releaseClaims(of owner: String) async throws -> ReleasedClaims
    /// Makes claimable at once every claim no live process holds: those of processes whose last
    /// heartbeat is older than `liveSince`; with `liveSince` nil, those of every process but
    /// `owner` (a server that owns its database alone takes its predecessor's work as it starts).
    func releaseAbandonedClaims(liveSince: Date?, except owner: String) async throws -> ReleasedClaims
}

/// How many claims were handed on.
public struct ReleasedClaims: Sendable, Equatable {
    public var events: Int
    public var deliveries: Int
    public var campaigns: Int

    public init(events: Int = 0, deliveries: Int = 0, campaigns: Int = 0) {
        self.events = events
        self.deliveries = deliveries
        self.campaigns = campaigns
    }

    public var isEmpty: Bool { events == 0 && deliveries == 0 && campaigns == 0 }
}
