import Foundation
import HeraldModels

/// One (subject, recipient, target) of the durable outbox and delivery log: stored before it is
/// attempted (or in the same commit as its first outcome), updated with every attempt, kept for
/// the app's retention period.
public struct Delivery: Sendable, Equatable {
    public var id: String
    public var appId: String
    /// The event (or campaign feed item) it tells of.
    public var subject: DeliverySubject
    public var uid: String
    public var target: DeliveryTarget
    public var sessionId: String?
    public var providerId: String?
    public var platform: PushPlatform?
    public var route: PushRoute?
    /// What kind of notice the push is, and how it is shaped.
    public var style: PushStyle
    /// The recipient's locale when the delivery was made (templates are picked by it).
    public var locale: String?
    /// The badge to show (the user's unread count then), when the app uses badges.
    public var badge: Int?
    /// The conversation's unread count then.
    public var unread: Int?
    public var status: DeliveryStatus
    /// What the log says of it: the skip reason, the in-app note, the failure or retry reason.
    public var reason: String?
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var leaseUntil: Date?
    /// The process that holds its lease (stored with a delivery claimed as it is made).
    public var leaseOwner: String?
    public var expiresAt: Date?
    public var providerStatus: Int?
    public var providerMessageId: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// When the device reported the push arrived, and when the user opened it.
    public var receivedAt: Date?
    public var openedAt: Date?

    public init(
        id: String = Identifier.timeOrdered("dlv_"),
        appId: String,
        subject: DeliverySubject,
        uid: String,
        target: DeliveryTarget,
        sessionId: String? = nil,
        providerId: String? = nil,
        platform: PushPlatform? = nil,
        route: PushRoute? = nil,
        style: PushStyle = .plain,
        locale: String? = nil,
        badge: Int? = nil,
        unread: Int? = nil,
        status: DeliveryStatus,
        reason: String? = nil,
        attempts: Int = 0,
        nextAttemptAt: Date? = nil,
        leaseUntil: Date? = nil,
        leaseOwner: String? = nil,
        expiresAt: Date? = nil,
        providerStatus: Int? = nil,
        providerMessageId: String? = nil,
        createdAt: Date,
        updatedAt: Date? = nil,
        receivedAt: Date? = nil,
        openedAt: Date? = nil
    ) {
        self.id = id
        self.appId = appId
        self.subject = subject
        self.uid = uid
        self.target = target
        self.sessionId = sessionId
        self.providerId = providerId
        self.platform = platform
        self.route = route
        self.style = style
        self.locale = locale
        self.badge = badge
        self.unread = unread
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.leaseUntil = leaseUntil
        self.leaseOwner = leaseOwner
        self.expiresAt = expiresAt
        self.providerStatus = providerStatus
        self.providerMessageId = providerMessageId
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.receivedAt = receivedAt
        self.openedAt = openedAt
    }

    public var channel: DeliveryChannel { target.channel }

    /// The delivery after an attempt's outcome.
    public mutating func apply(_ update: DeliveryUpdate) {
        status = update.status
        reason = update.reason
        attempts = update.attempts
        nextAttemptAt = update.nextAttemptAt
        leaseUntil = nil
        leaseOwner = nil
        providerStatus = update.providerStatus ?? providerStatus
        providerMessageId = update.providerMessageId ?? providerMessageId
        updatedAt = update.at
    }
}
