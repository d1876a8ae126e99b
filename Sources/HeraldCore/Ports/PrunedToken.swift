import Foundation

/// A token removed because its provider said it will never work again.
public struct PrunedToken: Sendable, Equatable {
    public var token: PushToken
    public var reason: String
    public var hint: String?
    public var invalidSince: Date?
    public var prunedAt: Date

    public init(token: PushToken, reason: String, hint: String?, invalidSince: Date?, prunedAt: Date) {
        self.token = token
        self.reason = reason
        self.hint = hint
        self.invalidSince = invalidSince
        self.prunedAt = prunedAt
    }
}
