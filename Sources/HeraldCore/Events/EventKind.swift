import Foundation
import HeraldModels

public enum EventKind: String, Codable, Sendable, CaseIterable {
    case message
    case call
    case reaction
    case groupAction = "group_action"
    case read
    /// Herald's own: a session was revoked or expired (silent push to its devices).
    case session
    /// A Matrix homeserver's notify to one device (the push gateway).
    case matrix
}

extension EventKind: CodingKeyRepresentable {
    /// The kinds a user is told of, each with its own templates and preference switch (a read
    /// and Herald's own session events are not notifications).
    public static let notifiable: [EventKind] = [.message, .call, .reaction, .groupAction]

    /// A notifiable kind by its wire name, or an error naming `field` and the names it takes.
    public static func notifiable(_ name: String, field: String) throws -> EventKind {
        guard let kind = EventKind(rawValue: name), notifiable.contains(kind) else {
            throw HeraldError.invalidField(field, "is not an event type; use \(notifiable.map(\.rawValue).joined(separator: ", "))")
        }
        return kind
    }
}
