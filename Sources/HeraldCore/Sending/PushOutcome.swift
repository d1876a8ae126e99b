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
