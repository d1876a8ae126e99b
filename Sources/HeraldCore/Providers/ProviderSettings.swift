import Foundation
import HeraldModels

/// A credential's settings and safe facts, each kind with its own fields.
public enum ProviderSettings: Sendable, Equatable {
    case fcm(FCMSettings)
    case apns(APNsSettings)
    /// A custom webhook (the API's kind `custom`).
    case webhook(WebhookSettings)
    case hms(HMSSettings)

    public var kind: ProviderKind {
        switch self {
        case .fcm: .fcm
        case .apns: .apns
        case .webhook: .custom
        case .hms: .hms
        }
    }

    /// FCM's and Huawei's "include notification key": a visible `notification` beside the data.
    public var includesNotification: Bool {
        switch self {
        case .fcm(let fcm): fcm.includeNotificationKey
        case .hms(let hms): hms.includeNotificationKey
        case .apns, .webhook: false
        }
    }

    public var fcm: FCMSettings? {
        if case .fcm(let settings) = self { return settings }
        return nil
    }

    public var apns: APNsSettings? {
        if case .apns(let settings) = self { return settings }
        return nil
    }

    public var webhook: WebhookSettings? {
        if case .webhook(let settings) = self { return settings }
        return nil
    }

    public var hms: HMSSettings? {
        if case .hms(let settings) = self { return settings }
        return nil
    }
}

/// An FCM credential: what its service-account file says, and the notification toggle.
public struct FCMSettings: Sendable, Equatable {
    public var projectId: String
    public var clientEmail: String
    public var privateKeyId: String?
    public var includeNotificationKey: Bool

    public init(projectId: String, clientEmail: String, privateKeyId: String? = nil, includeNotificationKey: Bool = false) {
        self.projectId = projectId
        self.clientEmail = clientEmail
        self.privateKeyId = privateKeyId
        self.includeNotificationKey = includeNotificationKey
    }
}

/// How an APNs credential authenticates.
public enum APNsAuth: String, Codable, Sendable {
    case token
    case certificate
}

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

/// A custom webhook: where it is, and the Basic-auth user when it asks for one.
public struct WebhookSettings: Sendable, Equatable {
    public var url: String
    public var basicAuthUsername: String?

    public init(url: String, basicAuthUsername: String? = nil) {
        self.url = url
        self.basicAuthUsername = basicAuthUsername
    }
}

/// A Huawei Push Kit credential: the AppGallery app id and the notification toggle.
public struct HMSSettings: Sendable, Equatable {
    public var appId: String
    public var includeNotificationKey: Bool

    public init(appId: String, includeNotificationKey: Bool = false) {
        self.appId = appId
        self.includeNotificationKey = includeNotificationKey
    }
}
