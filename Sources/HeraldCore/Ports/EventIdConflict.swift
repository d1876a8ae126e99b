import Foundation

/// An event's client id was used before for a different event: the post is refused whole.
public struct EventIdConflict: Error, Sendable {
    public var clientId: String
    /// The event stored under that id first.
    public var eventId: String

    public init(clientId: String, eventId: String) {
        self.clientId = clientId
        self.eventId = eventId
    }
}
