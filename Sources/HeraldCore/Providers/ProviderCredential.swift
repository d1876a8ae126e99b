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
    public var isBroken: Bool { config.broken != nil }
}
