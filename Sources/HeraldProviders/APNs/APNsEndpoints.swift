import Foundation
import HeraldCore

/// Where APNs is: Apple's hosts, or the operator's overrides (`HERALD_APNS_SANDBOX_URL`,
/// `HERALD_APNS_PRODUCTION_URL`) for local stand-ins.
public struct APNsEndpoints: Sendable {
    public var sandbox = HTTP2Endpoint(host: "api.sandbox.push.apple.com")
    public var production = HTTP2Endpoint(host: "api.push.apple.com")

    public init() {}

    public init(environment: [String: String]) throws {
        if let url = environment["HERALD_APNS_SANDBOX_URL"] {
            guard let endpoint = HTTP2Endpoint(url: url) else {
                throw HeraldError(.invalidField, "HERALD_APNS_SANDBOX_URL must be https://host[:port]")
            }
            sandbox = endpoint
        }
        if let url = environment["HERALD_APNS_PRODUCTION_URL"] {
            guard let endpoint = HTTP2Endpoint(url: url) else {
                throw HeraldError(.invalidField, "HERALD_APNS_PRODUCTION_URL must be https://host[:port]")
            }
            production = endpoint
        }
    }
}
