import Foundation
import HeraldCore
import Hummingbird
import NIOConcurrencyHelpers

/// Requests per second allowed to one credential (`HERALD_RATE_LIMIT`, `HERALD_USER_RATE_LIMIT`,
/// 0 turns a limit off).
public struct RateLimits: Sendable, Equatable {
    /// Per app API key (`hk_…`).
    public var apiKey: TokenBucket.Limit? = .init(rate: 1_000)
    /// Per user auth token (`hs_…`) and per anything else presented as a bearer.
    public var userToken: TokenBucket.Limit? = .init(rate: 100)

    public init() {}

    public static let off: RateLimits = {
        var limits = RateLimits()
        limits.apiKey = nil
        limits.userToken = nil
        return limits
    }()
}
