import Foundation
import HeraldModels

/// A stored provider credential: what may be shown (`config`) and what may not (`secret`, sealed at rest).
public struct ProviderCredential: Sendable, Equatable {
    public var appId: String
    public var providerId: String
    public var config: ProviderConfig
    /// The ``ProviderSecret`` as JSON, sealed by the ``SecretBox``.
    public var sealedSecret: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(appId: String, providerId: String, config: ProviderConfig, sealedSecret: String, createdAt: Date, updatedAt: Date) {
        self.appId = appId
        self.providerId = providerId
        self.config = config
        self.sealedSecret = sealedSecret
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var kind: ProviderKind { config.kind }

    /// The provider said the credential is unusable: it is not used until an operator changes it.
    public var isBroken: Bool { config.brokenReason != nil }
}

public enum APNsAuth: String, Codable, Sendable {
    case token
    case certificate
}

/// The settings and safe facts of a credential: everything here may be returned by the API.
/// One flat shape for all kinds, like the API's bodies; fields of other kinds stay nil.
public struct ProviderConfig: Codable, Sendable, Equatable {
    public var kind: ProviderKind
    public var enabled: Bool

    // fcm
    public var includeNotificationKey: Bool?
    public var projectId: String?
    public var clientEmail: String?
    public var privateKeyId: String?

    // apns
    public var auth: APNsAuth?
    public var keyId: String?
    public var teamId: String?
    public var bundleId: String?
    public var production: Bool?
    public var contentAvailable: Bool?
    public var mutableContent: Bool?
    public var certificateSubject: String?
    public var certificateExpiresAt: Date?

    // custom
    public var url: String?
    public var basicAuthUsername: String?

    // hms (includeNotificationKey applies too)
    public var hmsAppId: String?

    /// Set when a provider answered that the credential itself is wrong (revoked key, wrong
    /// project, expired certificate): why, and when. Cleared by any change to the provider.
    public var brokenReason: String?
    public var brokenAt: Date?

    public init(kind: ProviderKind, enabled: Bool = true) {
        self.kind = kind
        self.enabled = enabled
    }
}

/// The secret half of a credential. Never returned, never logged; stored only sealed.
public struct ProviderSecret: Codable, Sendable, Equatable {
    /// FCM: the service-account JSON file as uploaded.
    public var serviceAccountJSON: String?
    /// APNs token auth: the .p8 PEM.
    public var privateKeyPEM: String?
    /// APNs certificate auth: the .p12, base64, and its password.
    public var p12Base64: String?
    public var p12Password: String?
    /// Custom webhook: the Basic-auth password.
    public var basicAuthPassword: String?
    /// HMS: the app's client secret (OAuth client credentials).
    public var hmsClientSecret: String?

    public init() {}
}

/// A create or patch request, flat as the API takes it. Nil means "not given".
public struct ProviderInput: Sendable {
    public var providerId: String?
    public var kind: String?
    public var enabled: Bool?
    // fcm
    public var serviceAccountJSON: String?
    public var includeNotificationKey: Bool?
    // apns
    public var auth: String?
    public var keyId: String?
    public var teamId: String?
    public var bundleId: String?
    public var privateKey: String?
    public var p12: String?
    public var password: String?
    public var production: Bool?
    public var contentAvailable: Bool?
    public var mutableContent: Bool?
    // custom
    public var url: String?
    public var basicAuthUsername: String?
    public var basicAuthPassword: String?
    // hms
    public var hmsAppId: String?
    public var clientSecret: String?

    public init() {}
}
