import Foundation

/// How a push is sent to its token.
public enum PushRoute: String, Codable, Sendable {
    /// A visible notification.
    case alert
    /// A PushKit VoIP push (incoming calls, Kandy).
    case voip
    /// A silent background update (call ended, session gone).
    case background
}
