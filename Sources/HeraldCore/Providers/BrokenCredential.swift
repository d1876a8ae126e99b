import Foundation
import HeraldModels

/// Why and since when a provider refuses a credential.
public struct BrokenCredential: Sendable, Equatable {
    public var reason: String
    public var since: Date?

    public init(reason: String, since: Date?) {
        self.reason = reason
        self.since = since
    }
}
