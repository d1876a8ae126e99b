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
