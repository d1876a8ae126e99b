import Foundation
import HeraldModels

/// How a recipient is (or is not) told.
public enum DeliveryChannel: String, Codable, Sendable, CaseIterable {
    /// A push to one token.
    case push
    /// One call to a custom webhook provider (CometChat: one per recipient).
    case webhook
    /// Over the recipient's open WebSockets instead of a push.
    case inapp
    /// Not told: `reason` says why.
    case none
}

public enum DeliveryStatus: String, Codable, Sendable, CaseIterable {
    /// Waiting for its (next) attempt.
    case pending
    /// Claimed by a worker; if its lease runs out (the process died), it is claimed again.
    case sending
    case delivered
    /// Handed to the recipient's WebSockets.
    case inapp
    /// Decided against (preference, mute, no tokens, …).
    case skipped
    /// The provider refused it for good, or the token is dead, or attempts ran out.
    case failed
    /// Not delivered before it stopped being worth delivering (a call after a minute).
    case expired

    public var isFinal: Bool { ![.pending, .sending].contains(self) }
}

/// How a push is sent to its token.
public enum PushRoute: String, Codable, Sendable {
    /// A visible notification.
    case alert
    /// A PushKit VoIP push (incoming calls, Kandy).
    case voip
    /// A silent background update (call ended, session gone).
    case background
}

/// One (event, recipient, target) of the durable outbox and delivery log: stored before it is
/// attempted, updated with every attempt, kept for the app's retention period.
public struct Delivery: Sendable, Equatable {
    public var id: String
    public var appId: String
    public var eventId: String
    public var uid: String
    public var channel: DeliveryChannel
    /// The token, `webhook:<providerId>`, `inapp` or `-`.
    public var target: String
    public var sessionId: String?
    public var providerId: String?
    public var platform: PushPlatform?
    public var route: PushRoute?
    /// The recipient's locale when the delivery was made (templates are picked by it).
    public var locale: String?
    /// The badge to show (the user's unread count then), when the app uses badges.
    public var badge: Int?
    /// The conversation's unread count then.
    public var unread: Int?
    public var status: DeliveryStatus
    /// Why it was skipped or failed; the provider's reason.
    public var reason: String?
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var leaseUntil: Date?
    public var expiresAt: Date?
    public var providerStatus: Int?
    public var providerMessageId: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String = Identifier.timeOrdered("dlv_"), appId: String, eventId: String, uid: String, channel: DeliveryChannel, target: String,
                sessionId: String? = nil, providerId: String? = nil, platform: PushPlatform? = nil, route: PushRoute? = nil, locale: String? = nil,
                badge: Int? = nil, unread: Int? = nil, status: DeliveryStatus, reason: String? = nil, attempts: Int = 0,
                nextAttemptAt: Date? = nil, leaseUntil: Date? = nil, expiresAt: Date? = nil, providerStatus: Int? = nil,
                providerMessageId: String? = nil, createdAt: Date, updatedAt: Date? = nil) {
        self.id = id
        self.appId = appId
        self.eventId = eventId
        self.uid = uid
        self.channel = channel
        self.target = target
        self.sessionId = sessionId
        self.providerId = providerId
        self.platform = platform
        self.route = route
        self.locale = locale
        self.badge = badge
        self.unread = unread
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.leaseUntil = leaseUntil
        self.expiresAt = expiresAt
        self.providerStatus = providerStatus
        self.providerMessageId = providerMessageId
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }
}

extension Delivery {
    /// The delivery after an attempt's outcome.
    public mutating func apply(_ update: DeliveryUpdate) {
        status = update.status
        reason = update.reason
        attempts = update.attempts
        nextAttemptAt = update.nextAttemptAt
        leaseUntil = nil
        providerStatus = update.providerStatus ?? providerStatus
        providerMessageId = update.providerMessageId ?? providerMessageId
        updatedAt = update.at
    }
}

/// What became of one attempt (or of the decision not to attempt).
public struct DeliveryUpdate: Sendable, Equatable {
    public var id: String
    public var status: DeliveryStatus
    public var reason: String?
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var providerStatus: Int?
    public var providerMessageId: String?
    public var at: Date

    public init(id: String, status: DeliveryStatus, reason: String? = nil, attempts: Int, nextAttemptAt: Date? = nil,
                providerStatus: Int? = nil, providerMessageId: String? = nil, at: Date) {
        self.id = id
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.providerStatus = providerStatus
        self.providerMessageId = providerMessageId
        self.at = at
    }
}

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

/// Why an event reached nobody, recorded on the event so that the delivery log explains an event
/// without deliveries (`GET /v1/events/{eventId}`'s `reason`).
public enum NobodyReason: String, Sendable, Codable, CaseIterable {
    /// Its receivers are not users Herald knows (never synced, or deleted).
    case unknownUser = "unknown_user"
    /// The group it names does not exist.
    case unknownGroup = "unknown_group"
    /// The group has no member but the one who acted.
    case noMembers = "no_members"
}

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
    /// Where the event was when this step began (nil: its first page).
    public var fromCursor: String?
    /// Where it is after this step (nil when done).
    public var cursor: String?
    public var done: Bool
    public var recipients: Int
    public var leaseUntil: Date
    /// Why the event reached nobody (set on a first page that ends it).
    public var reason: NobodyReason?

    public init(appId: String, eventId: String, deliveries: [Delivery] = [], unreadIncrements: [UnreadKey] = [], unreadResets: [UnreadKey] = [],
                fromCursor: String? = nil, cursor: String? = nil, done: Bool, recipients: Int, leaseUntil: Date, reason: NobodyReason? = nil) {
        self.reason = reason
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
    }
}

public struct UnreadKey: Sendable, Hashable {
    public var uid: String
    public var conversationId: String

    public init(uid: String, conversationId: String) {
        self.uid = uid
        self.conversationId = conversationId
    }
}

/// The delivery log's filters (`GET /v1/deliveries`).
public struct DeliveryFilter: Sendable {
    public var uid: String?
    public var eventId: String?
    public var status: DeliveryStatus?
    public var since: Date?

    public init(uid: String? = nil, eventId: String? = nil, status: DeliveryStatus? = nil, since: Date? = nil) {
        self.uid = uid
        self.eventId = eventId
        self.status = status
        self.since = since
    }
}
