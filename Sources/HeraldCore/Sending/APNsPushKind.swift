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
