import Foundation
import HeraldCore

/// A `google.rpc.Status` error body with its FcmError detail.
struct FCMErrorBody: Decodable {
    struct Status: Decodable {
        struct Detail: Decodable {
            var type: String?
            var errorCode: String?

            enum CodingKeys: String, CodingKey {
                case type = "@type"
                case errorCode
            }
        }

        var code: Int?
        var message: String?
        var status: String?
        var details: [Detail]?
    }

    var error: Status

    /// The FcmError code, else the canonical status.
    var reason: String {
        error.details?.first { $0.type?.hasSuffix("google.firebase.fcm.v1.FcmError") == true }?.errorCode ?? error.status ?? "UNKNOWN"
    }
}

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
