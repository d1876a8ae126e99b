import Foundation

/// The APNs push types Herald sends (`apns-push-type`).
public enum APNsPushKind: String, Sendable, Hashable, CaseIterable {
    /// A visible notification.
    case alert
    /// A silent update for the app (`content-available`); APNs wants priority 5 for it.
    case background
    /// A PushKit VoIP push (an incoming call for CallKit), sent to the VoIP token's topic.
    case voip

    /// The priority Apple expects for the type.
    public var defaultPriority: APNsPriority { self == .background ? .consideringDevicePower : .immediately }
}

/// `apns-priority`: send now, or when the device's power allows.
public enum APNsPriority: Int, Sendable, Hashable {
    /// 10: delivered at once (alerts, VoIP).
    case immediately = 10
    /// 5: delivered when it suits the device's battery (background pushes must use it).
    case consideringDevicePower = 5
}

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
