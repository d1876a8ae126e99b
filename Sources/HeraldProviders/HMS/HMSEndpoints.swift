import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldModels
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Push Kit's send base and OAuth endpoint, Huawei's or the operator's (`HERALD_HMS_URL`,
/// `HERALD_HMS_TOKEN_URL`).
public struct HMSEndpoints: Sendable {
    public var sendBase = "https://push-api.cloud.huawei.com"
    public var tokenURL = "https://oauth-login.cloud.huawei.com/oauth2/v3/token"

    public init() {}

    public init(environment: [String: String]) throws {
        for (name, keyPath) in [("HERALD_HMS_URL", \HMSEndpoints.sendBase), ("HERALD_HMS_TOKEN_URL", \HMSEndpoints.tokenURL)] {
            guard let value = environment[name], !value.isEmpty else { continue }
            guard let components = URLComponents(string: value), components.scheme == "https", components.host != nil else {
                throw HeraldError(.invalidField, "\(name) must be an https:// URL")
            }
            self[keyPath: keyPath] = value.hasSuffix("/") ? String(value.dropLast()) : value
        }
    }
}
