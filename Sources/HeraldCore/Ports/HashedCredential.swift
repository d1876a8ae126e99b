import Foundation

/// A stored credential's hash and what it opens (an app id, a session).
public struct HashedCredential<Owner: Sendable>: Sendable {
    public var hash: String
    public var owner: Owner

    public init(hash: String, owner: Owner) {
        self.hash = hash
        self.owner = owner
    }

    /// How many leading characters of a hash the database is asked for.
    public static var lookupPrefixLength: Int { 16 }
}
