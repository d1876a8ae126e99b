import Foundation

/// Storage of events and their fan-out.
public protocol EventRepository: Sendable {
    /// Stores new events in one transaction — already claimed until `claimedUntil` when given (the
    /// caller fans them out itself). An event whose client id the app already used is not stored
    /// again: the id of the first is returned in its place. Returns the ids in order. A client id
    /// used before for a different body throws ``EventIdConflict`` and stores nothing.
    func insertEvents(_ events: [ChatEvent], claimedUntil: Date?) async throws -> [String]
    func storedEvent(appId: String, id: String) async throws -> StoredEvent?
    /// Claims up to `limit` events to fan out: pending ones first, and ones whose lease ran out
    /// (their process died mid-way). With several processes each event goes to one.
    func claimEvents(limit: Int, now: Date, leaseUntil: Date) async throws -> [StoredEvent]
    /// Commits fan-out steps (of one or several events) in one transaction: their deliveries
    /// with what became of them, unread counts, and each event done or, with pages to go, still
    /// claimed (with a fresh lease) at its new cursor. A delivery already stored for the same
    /// (event, recipient, target) — a step replayed after a crash — is kept as it was. A step
    /// whose event is no longer at the step's `fromCursor` (another worker recorded that page
    /// first) is dropped whole. Returns the ids of the events whose steps were recorded.
    func commitFanOut(_ steps: [FanOutStep], at: Date) async throws -> Set<String>
    /// Extends the lease of events still being worked on (a slow page must not be taken over).
    func renewEventLeases(ids: [String], until: Date) async throws
    /// The app's events, newest first.
    func events(appId: String, before: Date?, limit: Int) async throws -> [StoredEvent]
    /// Events not yet fanned out (all apps).
    func pendingEventCount() async throws -> Int
}

/// The outbox and delivery log.
public protocol DeliveryRepository: Sendable {
    /// Claims deliveries due now: pending ones whose time has come, and sending ones whose lease
    /// ran out. With several processes each delivery goes to one.
    func claimDeliveries(limit: Int, now: Date, leaseUntil: Date) async throws -> [Delivery]
    /// Records attempts' results in one transaction.
    func updateDeliveries(_ updates: [DeliveryUpdate]) async throws
    func deliveries(appId: String, filter: DeliveryFilter, after cursor: String?, limit: Int) async throws -> [Delivery]
    /// How many deliveries of the event are in each status.
    func deliveryCounts(appId: String, eventId: String) async throws -> [DeliveryStatus: Int]
    /// Deliveries waiting (pending or sending), all apps.
    func outboxDepth() async throws -> Int
    /// Deliveries waiting (pending or sending), by app.
    func outboxDepthByApp() async throws -> [String: Int]
    /// The app's deliveries created from `since` to `now`, counted per bucket of `bucketSeconds`,
    /// per provider, and the most frequent reasons of failed and skipped ones.
    func deliveryStats(appId: String, since: Date, now: Date, bucketSeconds: Int) async throws -> DeliveryStats
    /// The earliest time a pending delivery is due, if any.
    func nextDueTime() async throws -> Date?
    /// Forgets the app's events and deliveries older than `before`. Returns how many events went.
    func purge(appId: String, before: Date) async throws -> Int
}

public protocol PreferenceRepository: Sendable {
    func preferences(appId: String, uids: [String]) async throws -> [String: NotificationPreferences]
    func setPreferences(appId: String, uid: String, _ preferences: NotificationPreferences, at: Date) async throws
    func mutes(appId: String, uid: String) async throws -> [ConversationMute]
    /// Every mute of these users.
    func mutes(appId: String, uids: [String]) async throws -> [String: [ConversationMute]]
    func setMute(appId: String, uid: String, _ mute: ConversationMute, at: Date) async throws
    func deleteMute(appId: String, uid: String, conversationId: String) async throws -> Bool
}

public protocol TemplateRepository: Sendable {
    func templates(appId: String) async throws -> [PushTemplate]
    func upsertTemplate(appId: String, _ template: PushTemplate) async throws
    func deleteTemplate(appId: String, eventType: EventKind, receiverType: ReceiverType, locale: String) async throws -> Bool
}

public protocol UnreadRepository: Sendable {
    /// Each user's unread counts, by conversation.
    func unreadCounts(appId: String, uids: [String]) async throws -> [String: [String: Int]]
}

/// Bulk reads the fan-out needs.
public protocol RecipientDirectory: Sendable {
    func users(appId: String, uids: [String]) async throws -> [String: User]
    /// Every token of these users.
    func tokens(appId: String, uids: [String]) async throws -> [PushToken]
}

/// An event's client id was used before for a different event: the post is refused whole.
public struct EventIdConflict: Error, Sendable {
    public var clientId: String
    /// The event stored under that id first.
    public var eventId: String

    public init(clientId: String, eventId: String) {
        self.clientId = clientId
        self.eventId = eventId
    }
}
