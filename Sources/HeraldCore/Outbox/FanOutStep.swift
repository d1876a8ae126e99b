import Foundation

/// One step of an event's fan-out, committed atomically: the deliveries it decided (those already
/// stored by a step that ran before a crash are kept, not doubled), the unread counts it moved,
/// and where the event now is. A step counts only if the event is still where the step began
/// (`fromCursor`, not finished): when a worker was too slow and its lease ran out, the event was
/// taken over, and the first to record the page wins; the other's step is dropped whole.
public struct FanOutStep: Sendable {
    public var appId: String
    public var eventId: String
    public var deliveries: [Delivery]
    /// (uid, conversation) pairs whose unread count grows by one.
    public var unreadIncrements: [UnreadKey]
    /// (uid, conversation) pairs read: their count goes to zero.
    public var unreadResets: [UnreadKey]
    /// Notice windows opened, held in or removed (clears coalesced, bursts held).
    public var windowChanges: [WindowChange] = []
    /// Where the event was when this step began (nil: its first page).
    public var fromCursor: String?
    /// Where it is after this step (nil when done).
    public var cursor: String?
    public var done: Bool
    public var recipients: Int
    public var leaseUntil: Date
    /// Why the event reached nobody (set on a first page that ends it).
    public var reason: NobodyReason?

    public init(
        appId: String,
        eventId: String,
        deliveries: [Delivery] = [],
        unreadIncrements: [UnreadKey] = [],
        unreadResets: [UnreadKey] = [],
        fromCursor: String? = nil,
        cursor: String? = nil,
        done: Bool,
        recipients: Int,
        leaseUntil: Date,
        reason: NobodyReason? = nil
    ) {
        self.appId = appId
        self.eventId = eventId
        self.deliveries = deliveries
        self.unreadIncrements = unreadIncrements
        self.unreadResets = unreadResets
        self.fromCursor = fromCursor
        self.cursor = cursor
        self.done = done
        self.recipients = recipients
        self.leaseUntil = leaseUntil
        self.reason = reason
    }
}
