import Foundation

/// A tenant. Every other resource belongs to exactly one app.
public struct App: Sendable, Equatable {
    public var id: String
    public var name: String
    /// The region label seed 000's webhook envelope carries (`us`, `eu`, `in`, …).
    public var region: String
    public var settings: PushSettings
    public var createdAt: Date

    public init(id: String, name: String, region: String, settings: PushSettings = .init(), createdAt: Date) {
        self.id = id
        self.name = name
        self.region = region
        self.settings = settings
        self.createdAt = createdAt
    }
}

/// An app's push settings (`GET/PATCH /v1/push/settings`).
public struct PushSettings: Sendable, Equatable {
    /// Seed 000 "Enable Push notifications".
    public var enabled: Bool
    /// Seed 002: a user keeps at most this many tokens; the least recently registered goes first.
    public var maxTokensPerUser: Int

    public static let maxTokensRange = 1...100

    public init(enabled: Bool = true, maxTokensPerUser: Int = 20) {
        self.enabled = enabled
        self.maxTokensPerUser = maxTokensPerUser
    }
}

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

/// A newly minted API key: the only moment the secret exists in clear.
public struct IssuedAPIKey: Sendable {
    public var appId: String
    public var keyId: String
    public var apiKey: String
}
