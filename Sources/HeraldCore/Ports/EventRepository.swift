import Foundation

/// Storage of events and their fan-out.
public protocol EventRepository: Sendable {
    /// Stores new events in one transaction — already claimed when `claim` is given (the caller
    /// fans them out itself). An event whose client id the app already used is not stored
    /// again: the id of the first is returned in its place. Returns the ids in order. A client id
    /// used before for a different body throws ``EventIdConflict`` and stores nothing.
    func insertEvents(_ events: [ChatEvent], claim: Claim?) async throws -> [String]
    func storedEvent(appId: String, id: String) async throws -> StoredEvent?
    /// Claims up to `limit` events to fan out: pending ones first, and ones whose lease ran out
    /// (their process died mid-way). With several processes each event goes to one.
    func claimEvents(limit: Int, now: Date, claim: Claim) async throws -> [StoredEvent]
    /// Commits fan-out steps (of one or several events) in one transaction: their deliveries
    /// with what became of them, unread counts, and each event done or, with pages to go, still
    /// claimed (with a fresh lease) at its new cursor. A delivery already stored for the same
    /// (event, recipient, target) — a step replayed after a crash — is kept as it was. A step
    /// whose event is no longer at the step's `fromCursor` (another worker recorded that page
    /// first) is dropped whole. Returns the ids of the events whose steps were recorded.
    func commitFanOut(_ steps: [FanOutStep], at: Date) async throws -> Set<String>
    /// Extends to `until` the leases of events still being worked on (a slow page must not be
    /// taken over) that end before `endingBefore`: a lease with time to spare is not written.
    func renewEventLeases(ids: Set<String>, until: Date, endingBefore: Date) async throws
    /// The app's events, newest first.
    func events(appId: String, before: Date?, limit: Int) async throws -> [StoredEvent]
    /// Which of `uids` were alerted to a message (a push of one of its events, other than
    /// `eventId`, delivered or on its way): an edit replaces only their notification, a delete
    /// retracts only theirs.
    func alertedRecipients(appId: String, messageId: String, excluding eventId: String, uids: [String]) async throws -> Set<String>
    /// Events not yet fanned out (all apps).
    func pendingEventCount() async throws -> Int
}
