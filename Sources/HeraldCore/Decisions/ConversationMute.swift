import Foundation

/// A conversation a user muted, until a time or for good.
public struct ConversationMute: Sendable, Equatable {
    public var conversationId: String
    public var until: Date?

    public init(conversationId: String, until: Date?) {
        self.conversationId = conversationId
        self.until = until
    }

    public func isActive(at now: Date) -> Bool { until.map { now < $0 } ?? true }
}
