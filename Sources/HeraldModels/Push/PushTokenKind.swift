import Foundation

/// What a token is, whatever framework registered it. A VoIP and a standard token of one
/// device are two tokens of different kinds (Kandy).
public enum PushTokenKind: String, Codable, Sendable, CaseIterable, Hashable {
    case fcm
    case apnsDevice = "apns_device"
    case apnsVoIP = "apns_voip"
    case hms
    /// A Web Push subscription's endpoint (with its keys).
    case webPush = "web_push"
    /// A UnifiedPush endpoint (keys optional).
    case unifiedPush = "unifiedpush"

    /// The provider kind that delivers this token kind.
    public var providerKind: ProviderKind {
        switch self {
        case .fcm: .fcm
        case .apnsDevice, .apnsVoIP: .apns
        case .hms: .hms
        case .webPush, .unifiedPush: .webpush
        }
    }
}
