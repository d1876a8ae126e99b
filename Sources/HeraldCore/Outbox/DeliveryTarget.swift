import Foundation

/// Where one delivery goes: a device token, a custom webhook provider, the recipient's open
/// WebSockets, or nowhere (a skip). Storage keeps it as a channel and a target text; only
/// storage knows that mapping.
public enum DeliveryTarget: Sendable, Hashable {
    /// A push to one device token (its provider, platform and session are on the delivery).
    case token(String)
    /// One call to a custom webhook provider (CometChat: one per recipient).
    case webhook(providerId: String)
    /// Over the recipient's open WebSockets instead of a push.
    case inApp
    /// Not told: the delivery's reason says why.
    case none

    public var channel: DeliveryChannel {
        switch self {
        case .token: .push
        case .webhook: .webhook
        case .inApp: .inapp
        case .none: .none
        }
    }

    /// The device token, when this is a push to one.
    public var token: String? {
        if case .token(let token) = self { return token }
        return nil
    }
}
