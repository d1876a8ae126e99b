import Foundation
import HeraldModels

/// The settings and safe facts of a credential: everything here may be returned by the API.
/// Stored as one flat JSON object (the API's shape), read back into the kind's own settings.
public struct ProviderConfig: Sendable, Equatable {
    public var enabled: Bool
    public var settings: ProviderSettings
    /// Set when a provider answered that the credential itself is wrong (revoked key, wrong
    /// project, expired certificate). Cleared by any change to the provider.
    public var broken: BrokenCredential?

    public init(_ settings: ProviderSettings, enabled: Bool = true, broken: BrokenCredential? = nil) {
        self.settings = settings
        self.enabled = enabled
        self.broken = broken
    }

    public var kind: ProviderKind { settings.kind }
}

extension ProviderConfig: Codable {
    /// The stored form: one object with every kind's fields, those of other kinds absent.
    private struct Flat: Codable {
        var kind: ProviderKind
        var enabled: Bool
        var includeNotificationKey: Bool?
        var projectId: String?
        var clientEmail: String?
        var privateKeyId: String?
        var auth: APNsAuth?
        var keyId: String?
        var teamId: String?
        var bundleId: String?
        var production: Bool?
        var contentAvailable: Bool?
        var mutableContent: Bool?
        var certificateSubject: String?
        var certificateExpiresAt: Date?
        var url: String?
        var basicAuthUsername: String?
        var hmsAppId: String?
        var subject: String?
        var vapidPublicKey: String?
        var brokenReason: String?
        var brokenAt: Date?
    }

    public init(from decoder: any Decoder) throws {
        let flat = try Flat(from: decoder)
        func required<T>(_ value: T?, _ field: String) throws -> T {
            guard let value else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "a \(flat.kind.rawValue) provider has no \(field)")
                )
            }
            return value
        }
        let settings: ProviderSettings
        switch flat.kind {
        case .fcm:
            settings = .fcm(
                FCMSettings(
                    projectId: try required(flat.projectId, "projectId"),
                    clientEmail: try required(flat.clientEmail, "clientEmail"),
                    privateKeyId: flat.privateKeyId,
                    includeNotificationKey: flat.includeNotificationKey ?? false
                )
            )
        case .apns:
            let auth: APNsSettings.Auth
            switch flat.auth ?? .token {
            case .token: auth = .token(keyId: try required(flat.keyId, "keyId"), teamId: try required(flat.teamId, "teamId"))
            case .certificate:
                auth = .certificate(
                    subject: flat.certificateSubject ?? "",
                    expiresAt: try required(flat.certificateExpiresAt, "certificateExpiresAt")
                )
            }
            settings = .apns(
                APNsSettings(
                    auth: auth,
                    bundleId: try required(flat.bundleId, "bundleId"),
                    production: flat.production ?? false,
                    contentAvailable: flat.contentAvailable ?? false,
                    mutableContent: flat.mutableContent ?? false
                )
            )
        case .custom:
            settings = .webhook(WebhookSettings(url: try required(flat.url, "url"), basicAuthUsername: flat.basicAuthUsername))
        case .hms:
            settings = .hms(HMSSettings(appId: try required(flat.hmsAppId, "hmsAppId"), includeNotificationKey: flat.includeNotificationKey ?? false))
        case .webpush:
            settings = .webPush(
                WebPushSettings(subject: try required(flat.subject, "subject"), publicKey: try required(flat.vapidPublicKey, "vapidPublicKey"))
            )
        }
        self.init(settings, enabled: flat.enabled, broken: flat.brokenReason.map { BrokenCredential(reason: $0, since: flat.brokenAt) })
    }

    public func encode(to encoder: any Encoder) throws {
        var flat = Flat(kind: kind, enabled: enabled, brokenReason: broken?.reason, brokenAt: broken?.since)
        switch settings {
        case .fcm(let fcm):
            flat.projectId = fcm.projectId
            flat.clientEmail = fcm.clientEmail
            flat.privateKeyId = fcm.privateKeyId
            flat.includeNotificationKey = fcm.includeNotificationKey
        case .apns(let apns):
            flat.bundleId = apns.bundleId
            flat.production = apns.production
            flat.contentAvailable = apns.contentAvailable
            flat.mutableContent = apns.mutableContent
            switch apns.auth {
            case .token(let keyId, let teamId):
                flat.auth = .token
                flat.keyId = keyId
                flat.teamId = teamId
            case .certificate(let subject, let expiresAt):
                flat.auth = .certificate
                flat.certificateSubject = subject
                flat.certificateExpiresAt = expiresAt
            }
        case .webhook(let webhook):
            flat.url = webhook.url
            flat.basicAuthUsername = webhook.basicAuthUsername
        case .hms(let hms):
            flat.hmsAppId = hms.appId
            flat.includeNotificationKey = hms.includeNotificationKey
        case .webPush(let webPush):
            flat.subject = webPush.subject
            flat.vapidPublicKey = webPush.publicKey
        }
        try flat.encode(to: encoder)
    }
}
