import Foundation
import HeraldModels

/// A push ready for a provider, in Core's own terms: each kind a typed value that knows its wire
/// form. Provider clients only encode and send it.
public enum OutgoingPush: Sendable, Equatable {
    case apns(APNsPush)
    case fcm(FCMPush)
    case webhook(WebhookEnvelope)
    case hms(HMSPush)
    case webPush(WebPushMessage)

    /// The provider kind that sends it.
    public var providerKind: ProviderKind {
        switch self {
        case .apns: .apns
        case .fcm: .fcm
        case .webhook: .custom
        case .hms: .hms
        case .webPush: .webpush
        }
    }
}
