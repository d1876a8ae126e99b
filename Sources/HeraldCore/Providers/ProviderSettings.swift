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
