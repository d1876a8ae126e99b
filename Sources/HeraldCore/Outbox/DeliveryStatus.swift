import Foundation

public enum DeliveryStatus: String, Codable, Sendable, CaseIterable {
    /// Waiting for its (next) attempt.
    case pending
    /// Claimed by a worker; if its lease runs out (the process died), it is claimed again.
    case sending
    case delivered
    /// Handed to the recipient's WebSockets.
    case inapp
    /// Decided against (preference, mute, no tokens, …).
    case skipped
    /// The provider refused it for good, or the token is dead, or attempts ran out.
    case failed
    /// Not delivered before it stopped being worth delivering (a call after a minute).
    case expired
    /// Held in a burst window: the summary that replaces the conversation's first alert tells of it.
    case held

    public var isFinal: Bool { ![.pending, .sending].contains(self) }
}
