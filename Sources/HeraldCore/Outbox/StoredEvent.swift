import Foundation

/// An event as stored, with where its fan-out is.
public struct StoredEvent: Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case pending
        case fanningOut = "fanning_out"
        case done
    }

    public var event: ChatEvent
    public var status: Status
    /// Where the next page of recipients starts (the last uid done).
    public var cursor: String?
    public var recipients: Int
    public var finishedAt: Date?
    /// Why a finished event reached nobody, when the directory says why.
    public var reason: NobodyReason?

    public init(event: ChatEvent, status: Status, cursor: String? = nil, recipients: Int = 0, finishedAt: Date? = nil, reason: NobodyReason? = nil) {
        self.event = event
        self.status = status
        self.cursor = cursor
        self.recipients = recipients
        self.finishedAt = finishedAt
        self.reason = reason
    }
}
