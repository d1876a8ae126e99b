import Foundation
import HeraldCore

enum FCMErrorMapping {
    /// The one place an FCM answer becomes an outcome.
    static func outcome(status: Int, reason: String, message: String?, retryAfter: Duration?) -> PushOutcome {
        switch reason {
        case "UNREGISTERED", "NOT_FOUND":
            return .tokenInvalid(since: nil, hint: nil)
        case "SENDER_ID_MISMATCH":
            return .tokenInvalid(since: nil, hint: "the token belongs to another Firebase project")
        case "INVALID_ARGUMENT":
            if let message, message.localizedCaseInsensitiveContains("registration token") {
                return .tokenInvalid(since: nil, hint: "not a valid FCM registration token")
            }
            return .failed
        case "QUOTA_EXCEEDED", "RESOURCE_EXHAUSTED", "UNAVAILABLE", "INTERNAL":
            return .retryLater(after: retryAfter)
        case "THIRD_PARTY_AUTH_ERROR", "PERMISSION_DENIED", "UNAUTHENTICATED":
            return .credentialBroken
        default:
            return status >= 500 || status == 429 ? .retryLater(after: retryAfter) : .failed
        }
    }
}
