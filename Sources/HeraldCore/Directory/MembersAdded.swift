import Foundation
import HeraldModels

/// What adding members did: new members, members whose scope was set again, uids that are not users.
public struct MembersAdded: Sendable, Equatable {
    public var added: Int
    public var updated: Int
    public var notFound: [String]

    public init(added: Int, updated: Int, notFound: [String]) {
        self.added = added
        self.updated = updated
        self.notFound = notFound
    }
}
