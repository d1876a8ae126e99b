import Foundation

/// `apns-expiration`: how long APNs keeps trying an offline device.
public enum APNsExpiration: Sendable, Hashable {
    /// No header: APNs's own default.
    case none
    /// `0`: deliver now or never.
    case immediately
    /// Until this time (whole seconds since 1970).
    case at(Date)

    public init(_ date: Date?) {
        self = date.map(APNsExpiration.at) ?? .none
    }

    /// The header's value, nil when no header is sent.
    public var headerValue: String? {
        switch self {
        case .none: nil
        case .immediately: "0"
        case .at(let date): String(Int(date.timeIntervalSince1970))
        }
    }
}
