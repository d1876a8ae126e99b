import Foundation
import HeraldModels

/// What Herald knows about one recipient when it decides.
public struct RecipientFacts: Sendable {
    public var uid: String
    public var user: User?
    /// The user's preferences over the app's defaults.
    public var preferences: NotificationPreferences
    public var mutes: [ConversationMute]
    /// The recipient's online presence rows (grace period applied).
    public var presence: [PresenceRecord]
    public var tokens: [PushToken]
    /// For an edit or a delete: whether the recipient was alerted to the message (nil for other events).
    public var alerted: Bool?

    public init(
        uid: String,
        user: User? = nil,
        preferences: NotificationPreferences = .init(),
        mutes: [ConversationMute] = [],
        presence: [PresenceRecord] = [],
        tokens: [PushToken] = [],
        alerted: Bool? = nil
    ) {
        self.uid = uid
        self.user = user
        self.preferences = preferences
        self.mutes = mutes
        self.presence = presence
        self.tokens = tokens
        self.alerted = alerted
    }
}
