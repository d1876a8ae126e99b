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

/// An app's push settings (`GET/PATCH /v1/push/settings`). `enabled` and `maxTokensPerUser`
/// have columns of their own; the rest is stored as JSON, and a key missing there (an app made
/// before the setting existed) takes its default.
public struct PushSettings: Sendable, Equatable {
    /// Seed 000 "Enable Push notifications".
    public var enabled: Bool
    /// Seed 002: a user keeps at most this many tokens; the least recently registered goes first.
    public var maxTokensPerUser: Int
    /// Seed 002: push when all devices are offline, or to each offline device.
    public var multiDevicePolicy: MultiDevicePolicy
    /// A session counts as online this long after its socket drops.
    public var onlineGraceSeconds: Int

    public static let maxTokensRange = 1...100
    public static let onlineGraceRange = 0...300

    public init(enabled: Bool = true, maxTokensPerUser: Int = 20, multiDevicePolicy: MultiDevicePolicy = .allOffline, onlineGraceSeconds: Int = 5) {
        self.enabled = enabled
        self.maxTokensPerUser = maxTokensPerUser
        self.multiDevicePolicy = multiDevicePolicy
        self.onlineGraceSeconds = onlineGraceSeconds
    }

    /// The settings kept as JSON.
    public struct Stored: Codable, Sendable, Equatable {
        public var multiDevicePolicy: MultiDevicePolicy?
        public var onlineGraceSeconds: Int?

        public init(multiDevicePolicy: MultiDevicePolicy? = nil, onlineGraceSeconds: Int? = nil) {
            self.multiDevicePolicy = multiDevicePolicy
            self.onlineGraceSeconds = onlineGraceSeconds
        }
    }

    public var stored: Stored {
        Stored(multiDevicePolicy: multiDevicePolicy, onlineGraceSeconds: onlineGraceSeconds)
    }

    public init(enabled: Bool, maxTokensPerUser: Int, stored: Stored) {
        let defaults = PushSettings()
        self.init(enabled: enabled, maxTokensPerUser: maxTokensPerUser,
                  multiDevicePolicy: stored.multiDevicePolicy ?? defaults.multiDevicePolicy,
                  onlineGraceSeconds: stored.onlineGraceSeconds ?? defaults.onlineGraceSeconds)
    }
}

/// A change to push settings: nil leaves a setting as it is.
public struct PushSettingsPatch: Sendable {
    public var enabled: Bool?
    public var maxTokensPerUser: Int?
    public var multiDevicePolicy: String?
    public var onlineGraceSeconds: Int?

    public init(enabled: Bool? = nil, maxTokensPerUser: Int? = nil, multiDevicePolicy: String? = nil, onlineGraceSeconds: Int? = nil) {
        self.enabled = enabled
        self.maxTokensPerUser = maxTokensPerUser
        self.multiDevicePolicy = multiDevicePolicy
        self.onlineGraceSeconds = onlineGraceSeconds
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
