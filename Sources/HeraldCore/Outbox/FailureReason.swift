import Foundation

/// Why a delivery did not go through, this time or for good: a code each (what the metrics and
/// the failure summaries count), and the provider's own text where there is one. The delivery
/// log stores ``description``.
public indirect enum FailureReason: Error, Sendable, Equatable, CustomStringConvertible {
    /// The delivery's provider was deleted.
    case providerDeleted
    /// The delivery's provider was disabled.
    case providerDisabled
    /// The provider refused the credential itself (its reason).
    case credentialBroken(String)
    /// The token will never work again (the provider's reason, and its hint).
    case tokenInvalid(String, hint: String?)
    /// The provider's verdict on this push (`BadTopic`, `TooManyRequests`, `transport: …`), or a
    /// local one (`PayloadTooLarge (local: …)`).
    case provider(String)
    /// Not delivered before it stopped being worth delivering.
    case expired
    /// What the delivery tells of is gone (the event was purged, the feed item deleted).
    case subjectGone(DeliverySubject.Kind)
    /// Something the push is made from could not be read (`what`: "the event", "the app", …).
    case unreadable(what: String, error: String)
    /// No push can be made for this delivery (a VoIP token for a silent push, …).
    case unsendable(String)
    /// Retries would arrive too late: the last reason it was retried for.
    case expiredWhileWaiting(FailureReason)
    /// Attempts ran out: how many, and the last reason.
    case gaveUp(attempts: Int, FailureReason)

    /// The reason's code: the provider's own reason code for ``provider(_:)``.
    public var code: String {
        switch self {
        case .providerDeleted: "provider_deleted"
        case .providerDisabled: "provider_disabled"
        case .credentialBroken: "credential_broken"
        case .tokenInvalid: "token_invalid"
        case .provider(let reason): Self.leadingCode(of: reason)
        case .expired: "expired"
        case .subjectGone: "gone"
        case .unreadable: "unreadable"
        case .unsendable: "unsendable"
        case .expiredWhileWaiting: "expired"
        case .gaveUp: "gave_up"
        }
    }

    public var description: String {
        switch self {
        case .providerDeleted: "provider_deleted"
        case .providerDisabled: "provider_disabled"
        case .credentialBroken(let reason): "credential_broken: " + reason
        case .tokenInvalid(let reason, let hint): "token_invalid: " + reason + (hint.map { " (\($0))" } ?? "")
        case .provider(let reason): reason
        case .expired: "expired before it could be delivered"
        case .subjectGone(.event): "the event is gone"
        case .subjectGone(.feedItem): "the feed item is gone"
        case .unreadable(let what, let error): "\(what) could not be read: \(error)"
        case .unsendable(let why): why
        case .expiredWhileWaiting(let last): "expired while waiting to retry: \(last)"
        case .gaveUp(let attempts, let last): "gave up after \(attempts) attempts: \(last)"
        }
    }

    /// A provider's reason up to its free text (`BadDeviceToken (local: not hex)` → `BadDeviceToken`).
    static func leadingCode(of reason: String) -> String {
        let code = reason.prefix { $0 != ":" && $0 != "(" }.trimmingCharacters(in: .whitespaces)
        return code.isEmpty ? "failed" : code
    }
}
