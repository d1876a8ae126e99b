import Foundation

/// What a provider's answer means for Herald. Every provider maps its own statuses and reasons
/// onto these five outcomes; the outbox, token pruning and the test-send API act on them.
public enum PushOutcome: Sendable, Equatable {
    /// Accepted by the provider.
    case delivered
    /// Not delivered now; worth trying again, after `after` when the provider said so.
    case retryLater(after: Duration?)
    /// The token will never work again: remove it. `since` is when the provider learnt so.
    case tokenInvalid(since: Date?, hint: String?)
    /// The credential (key, certificate, project) is unusable: stop using it until an operator fixes it.
    case credentialBroken
    /// This push cannot be delivered as it is (payload, topic, …); retrying will not help.
    case failed

    /// The outcome's name on the wire (API and CLI).
    public var name: String {
        switch self {
        case .delivered: "delivered"
        case .retryLater: "retry_later"
        case .tokenInvalid: "token_invalid"
        case .credentialBroken: "credential_broken"
        case .failed: "failed"
        }
    }

    public var isRetryable: Bool {
        if case .retryLater = self { return true }
        return false
    }
}

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

    public init(outcome: PushOutcome, providerStatus: Int? = nil, reason: String? = nil, providerMessageId: String? = nil, latency: Duration = .zero) {
        self.outcome = outcome
        self.providerStatus = providerStatus
        self.reason = reason
        self.providerMessageId = providerMessageId
        self.latency = latency
    }
}
