import Foundation

/// What became of one attempt (or of the decision not to attempt).
public struct DeliveryUpdate: Sendable, Equatable {
    public var id: String
    public var status: DeliveryStatus
    /// Why it is tried again, failed or expired.
    public var failure: FailureReason?
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var providerStatus: Int?
    public var providerMessageId: String?
    public var at: Date

    public init(
        id: String,
        status: DeliveryStatus,
        failure: FailureReason? = nil,
        attempts: Int,
        nextAttemptAt: Date? = nil,
        providerStatus: Int? = nil,
        providerMessageId: String? = nil,
        at: Date
    ) {
        self.id = id
        self.status = status
        self.failure = failure
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.providerStatus = providerStatus
        self.providerMessageId = providerMessageId
        self.at = at
    }

    /// What the delivery log stores as the reason.
    public var reason: String? { failure?.description }

    /// The delivery ends here without another attempt (nothing was sent, or the answer is final).
    public static func ended(_ delivery: Delivery, _ status: DeliveryStatus, _ failure: FailureReason, at: Date) -> DeliveryUpdate {
        DeliveryUpdate(id: delivery.id, status: status, failure: failure, attempts: delivery.attempts, at: at)
    }
}
