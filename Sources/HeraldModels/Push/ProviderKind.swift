import Foundation

/// The kinds of push provider credentials Herald stores.
public enum ProviderKind: String, Codable, Sendable, CaseIterable, Hashable {
    case fcm
    case apns
    case custom
    /// Huawei Push Kit.
    case hms
    /// Web Push (RFC 8030) with VAPID (RFC 8292): browsers' push services and UnifiedPush distributors.
    case webpush
}
