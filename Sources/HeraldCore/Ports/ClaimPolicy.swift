import Foundation

/// How this process claims work: under which name (its instance id, which a heartbeat keeps
/// alive on PostgreSQL), and for how long a claim lasts before it must be renewed.
public struct ClaimPolicy: Sendable, Equatable {
    public var owner: String
    public var lease: TimeInterval

    public init(owner: String, lease: TimeInterval = 60) {
        self.owner = owner
        self.lease = lease
    }

    /// A claim made now.
    public func claim(at now: Date) -> Claim {
        Claim(owner: owner, until: now.addingTimeInterval(lease))
    }

    /// A process with a random name (tests and tools that claim on their own).
    public static func anonymous(lease: TimeInterval = 60) -> ClaimPolicy {
        ClaimPolicy(owner: "h" + Identifier.hex(bytes: 6), lease: lease)
    }
}
