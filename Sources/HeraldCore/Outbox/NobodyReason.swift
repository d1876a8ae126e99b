import Foundation

/// Why an event reached nobody, recorded on the event so that the delivery log explains an event
/// without deliveries (`GET /v1/events/{eventId}`'s `reason`).
public enum NobodyReason: String, Sendable, Codable, CaseIterable {
    /// Its receivers are not users Herald knows (never synced, or deleted).
    case unknownUser = "unknown_user"
    /// The group it names does not exist.
    case unknownGroup = "unknown_group"
    /// The group has no member but the one who acted.
    case noMembers = "no_members"
}
