import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldModels
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHPACK
import NIOSSL

/// FCM's send base and OAuth endpoint, Google's or the operator's (`HERALD_FCM_URL`, `HERALD_FCM_TOKEN_URL`).
public struct FCMEndpoints: Sendable {
    public var send = HTTP2Endpoint(host: "fcm.googleapis.com")
    public var tokenURL: String?

    public init() {}

    public init(environment: [String: String]) throws {
        if let url = environment["HERALD_FCM_URL"] {
            guard let endpoint = HTTP2Endpoint(url: url) else { throw HeraldError(.invalidField, "HERALD_FCM_URL must be https://host[:port]") }
            send = endpoint
        }
        tokenURL = environment["HERALD_FCM_TOKEN_URL"]
    }
}
