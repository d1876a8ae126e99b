import Foundation

/// A user's preferences as they apply: what they set over the app's defaults, and their mutes.
public struct EffectivePreferences: Sendable, Equatable {
    public var events: [EventKind: Bool]
    public var groupMentionsOnly: Bool
    public var doNotDisturb: NotificationPreferences.DoNotDisturb?
    public var mutes: [ConversationMute]
    public var keywords: [String]
    /// Nil: the app's content mode applies.
    public var contentMode: ContentMode?
}
