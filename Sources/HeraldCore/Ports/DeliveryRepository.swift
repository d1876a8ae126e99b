import Foundation

/// The outbox and delivery log.
public protocol DeliveryRepository: Sendable {
    /// Claims deliveries due now: pending ones whose time has come, and sending ones whose lease
    /// ran out. With several processes each delivery goes to one.
    func claimDeliveries(limit: Int, now: Date, claim: Claim) async throws -> [Delivery]
    /// Marks the user's pushes of each receipt's message received (and opened) at its time, if
    /// not already; returns how many receipts changed a delivery.
    func recordReceipts(appId: String, uid: String, _ receipts: [DeviceReceipt]) async throws -> Int
    /// How many of an event's deliveries devices reported received and opened.
    func receiptCounts(appId: String, eventId: String) async throws -> (received: Int, opened: Int)
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
