import Foundation

/// A claim on work (an event to fan out, a delivery to send, a campaign to run): who holds it,
/// and until when. Another process takes it over when it runs out, or at once when its holder
/// is gone (``ClaimRepository``).
public struct Claim: Sendable, Equatable {
    /// The process that holds it (its instance id).
    public var owner: String
    public var until: Date

    public init(owner: String, until: Date) {
        self.owner = owner
        self.until = until
    }
}
