import Foundation

/// Why a recipient was not told. The raw value is the name the delivery log, the metrics and
/// the API show.
public enum SkipReason: String, Sendable, CaseIterable {
    /// The app's pushes are off.
    case pushDisabled = "push_disabled"
    /// The message asked not to be pushed (`suppressPush`).
    case suppressed
    /// The recipient turned this event type off.
    case preferenceOff = "preference_off"
    /// A group message that does not mention a recipient who wants mentions only.
    case mentionsOnly = "mentions_only"
    /// The recipient muted the conversation.
    case muted
    /// The recipient's do-not-disturb hours.
    case doNotDisturb = "do_not_disturb"
    /// The recipient has no token.
    case noTokens = "no_tokens"
    /// The recipient's tokens belong to providers that are disabled, deleted or set aside.
    case noUsableTokens = "no_usable_tokens"
    /// Herald does not know the recipient (never synced, or deleted).
    case unknownUser = "unknown_user"
    /// An edit or a delete of a message the recipient was never alerted to: nothing to replace
    /// or take away.
    case notAlerted = "not_alerted"
    /// A Matrix notify that leaves a device nothing to show or count (Sygnal sends nothing too).
    case nothingToSend = "nothing_to_send"
    /// A Matrix homeserver's notify already pushed to this device (a retry of the same event).
    case duplicate
}
