import Foundation

/// A provider's verdict on one push.
public struct PushResult: Sendable, Equatable {
    public var outcome: PushOutcome
    /// The provider's HTTP status, when it answered.
    public var providerStatus: Int?
    /// The provider's reason (`BadDeviceToken`, `UNREGISTERED`, …) or a local reason.
    public var reason: String?
    /// The provider's id for the message (`apns-id`, FCM message name).
    public var providerMessageId: String?
    public var latency: Duration

    public init(outcome: PushOutcome, providerStatus: Int? = nil, reason: String? = nil, providerMessageId: String? = nil, latency: Duration = .zero)
    {
        self.outcome = outcome
        self.providerStatus = providerStatus
        self.reason = reason
        self.providerMessageId = providerMessageId
        self.latency = latency
    }
}
