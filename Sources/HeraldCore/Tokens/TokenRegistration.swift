import Foundation
import HeraldModels

/// What a registration changed besides the token itself.
public struct TokenRegistration: Sendable, Equatable {
    public var token: PushToken
    /// The token belonged to another user before and moved to this one.
    public var movedFromUid: String?
    /// Tokens removed: other tokens of the same kind (`unique`) and those over the cap.
    public var removedTokens: [String]

    public init(token: PushToken, movedFromUid: String?, removedTokens: [String]) {
        self.token = token
        self.movedFromUid = movedFromUid
        self.removedTokens = removedTokens
    }
}
