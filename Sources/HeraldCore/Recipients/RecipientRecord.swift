import Foundation

/// What the fan-out reads of one recipient besides the user row — preferences, mutes, tokens and
/// unread counts — read and cached together, so that a batch looks each recipient up once rather
/// than once for each (four lookups in four caches, and four dictionaries by uid, were ~5 % of
/// the server's CPU per 1:1 push).
public struct RecipientRecord: Sendable, Equatable {
    /// Nil: the user set none (the app's defaults apply).
    public var preferences: NotificationPreferences?
    public var mutes: [ConversationMute]
    /// Newest first.
    public var tokens: [PushToken]
    /// By conversation id, counts above zero.
    public var unread: [String: Int]

    public init(
        preferences: NotificationPreferences? = nil,
        mutes: [ConversationMute] = [],
        tokens: [PushToken] = [],
        unread: [String: Int] = [:]
    ) {
        self.preferences = preferences
        self.mutes = mutes
        self.tokens = tokens
        self.unread = unread
    }

    /// A user with nothing stored (or no user at all).
    public static let empty = RecipientRecord()
}
