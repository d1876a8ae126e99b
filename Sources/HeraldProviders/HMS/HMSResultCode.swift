import Foundation
import HeraldCore

/// The one place a Push Kit result code becomes an outcome.
enum HMSResultCode {
    static let success = "80000000"
    static let partialSuccess = "80100000"
    /// The access token is wrong (80200001) or expired (80200003): refresh once and send again.
    static let authenticationCodes: Set<String> = ["80200001", "80200003"]

    static func outcome(code: String, status: Int, retryAfter: Duration?) -> PushOutcome {
        switch code {
        case success:
            return .delivered
        case "80300007":
            return .tokenInvalid(since: nil, hint: "the token is malformed or was issued to another app")
        case "80200001", "80200003", "80300002":
            return .credentialBroken
        case "80600003", "81000001":
            return .retryLater(after: retryAfter)
        case "80100001", "80100003", "80100004", "80100013", "80100016", "80100017", "80300008", "80300010", "80300011":
            return .failed
        default:
            if status == 429 || status >= 500 { return .retryLater(after: retryAfter) }
            if status == 401 || status == 403 { return .credentialBroken }
            return .failed
        }
    }

    /// What an operator reads for a code.
    static func describe(_ code: String) -> String? {
        switch code {
        case "80100001": "some request parameters are wrong"
        case "80100003": "the message structure is wrong"
        case "80100004": "the message expired before it was sent"
        case "80100013": "collapse_key is wrong"
        case "80100016": "the message was refused for sensitive content"
        case "80200001": "OAuth authentication failed"
        case "80200003": "the OAuth access token expired"
        case "80300002": "the app may not send push messages"
        case "80300007": "the token is invalid"
        case "80300008": "the message is over Push Kit's size limit"
        case "80300010": "the number of tokens is out of range (1 to 1,000)"
        case "80300011": "the app may not send high-priority messages (apply for the category first)"
        case "80600003": "Push Kit could not reach its OAuth service"
        case "81000001": "Push Kit had an internal error"
        default: nil
        }
    }
}
