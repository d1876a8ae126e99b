import Foundation

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
    // webpush
    public var subject: String?
    public var vapidPrivateKey: String?

    public init() {}
}
