/// A count of pushes of one batch that ended alike.
public struct BatchFailure: Sendable, Equatable, Hashable {
    public var outcome: String
    public var reason: String
    public var count: Int

    public init(outcome: String, reason: String, count: Int) {
        self.outcome = outcome
        self.reason = reason
        self.count = count
    }
}
