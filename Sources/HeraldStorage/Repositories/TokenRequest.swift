import HeraldCore

/// A token registration as PostgreSQL's batches take it (``SQLStore/registrations``): the token,
/// its rules, and the cache notice (``CacheBus/unconfirmedNotice(_:)``) its statement sends if
/// it only adds the token.
struct TokenRequest: Sendable {
    var token: PushToken
    var unique: Bool
    var maxPerUser: Int
    var notice: String?
}
