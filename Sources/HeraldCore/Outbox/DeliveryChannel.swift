import Foundation

/// How a recipient is (or is not) told: the kind of a ``DeliveryTarget``, as the delivery log
/// and the API name it.
public enum DeliveryChannel: String, Codable, Sendable, CaseIterable {
    /// A push to one token.
    case push
    /// One call to a custom webhook provider.
    case webhook
    /// Over the recipient's open WebSockets instead of a push.
    case inapp
    /// Not told: `reason` says why.
    case none
}
