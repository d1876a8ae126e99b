import Foundation
import HeraldModels

/// An API key as listed to the operator: never the key itself.
public struct APIKeyInfo: Sendable, Equatable {
    public var id: String
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: String, createdAt: Date, revokedAt: Date?) {
        self.id = id
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
