import Foundation
import HeraldModels

/// A credential's settings and safe facts, each kind with its own fields.
/// (Its accessors are not inlined: Swift 6.3.1's optimizer, inlining a switch over these cases
/// into a caller that borrows the credential, fails its ownership check — "Found outside of
/// lifetime use" — and the release build stops.)
public enum ProviderSettings: Sendable, Equatable {
    case fcm(FCMSettings)
    case apns(APNsSettings)
    /// A custom webhook (the API's kind `custom`).
    case webhook(WebhookSettings)
    case hms(HMSSettings)
    case webPush(WebPushSettings)

    @inline(never) public var kind: ProviderKind {
        switch self {
        case .fcm: .fcm
        case .apns: .apns
        case .webhook: .custom
        case .hms: .hms
        case .webPush: .webpush
        }
    }

    /// FCM's and Huawei's "include notification key": a visible `notification` beside the data.
    @inline(never) public var includesNotification: Bool {
        switch self {
        case .fcm(let fcm): fcm.includeNotificationKey
        case .hms(let hms): hms.includeNotificationKey
        case .apns, .webhook, .webPush: false
        }
    }

    /// When an APNs client certificate stops working; nil for every other credential.
    @inline(never) public var certificateExpiresAt: Date? {
        guard case .apns(let settings) = self, case .certificate(_, let expiresAt) = settings.auth else { return nil }
        return expiresAt
    }

    @inline(never) public var fcm: FCMSettings? {
        if case .fcm(let settings) = self { return settings }
        return nil
    }

    @inline(never) public var apns: APNsSettings? {
        if case .apns(let settings) = self { return settings }
        return nil
    }

    @inline(never) public var webhook: WebhookSettings? {
        if case .webhook(let settings) = self { return settings }
        return nil
    }

    @inline(never) public var webPush: WebPushSettings? {
        if case .webPush(let settings) = self { return settings }
        return nil
    }

    @inline(never) public var hms: HMSSettings? {
        if case .hms(let settings) = self { return settings }
        return nil
    }
}
