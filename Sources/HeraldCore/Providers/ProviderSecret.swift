import Foundation

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
    /// Web Push: the VAPID private key (``VAPIDKey/storedText``).
    public var vapidPrivateKey: String?

    public init() {}
}
