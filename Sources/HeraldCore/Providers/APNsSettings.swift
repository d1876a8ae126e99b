import Foundation
import HeraldModels

/// An APNs credential: token auth (a .p8 key's id and team) or certificate auth (the .p12's
/// subject and expiry), the app's bundle id, the environment, and CometChat's payload toggles.
public struct APNsSettings: Sendable, Equatable {
    public enum Auth: Sendable, Equatable {
        case token(keyId: String, teamId: String)
        case certificate(subject: String, expiresAt: Date)

        public var kind: APNsAuth {
            switch self {
            case .token: .token
            case .certificate: .certificate
            }
        }
    }

    public var auth: Auth
    public var bundleId: String
    public var production: Bool
    public var contentAvailable: Bool
    public var mutableContent: Bool

    public init(auth: Auth, bundleId: String, production: Bool = false, contentAvailable: Bool = false, mutableContent: Bool = false) {
        self.auth = auth
        self.bundleId = bundleId
        self.production = production
        self.contentAvailable = contentAvailable
        self.mutableContent = mutableContent
    }

    /// When the certificate stops working (certificate auth only).
    public var certificateExpiresAt: Date? {
        if case .certificate(_, let expiresAt) = auth { return expiresAt }
        return nil
    }
}
