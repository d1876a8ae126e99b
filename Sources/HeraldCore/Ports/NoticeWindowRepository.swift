import Foundation

/// Storage of notice windows (``NoticeWindow``): written with fan-out steps
/// (``EventRepository/commitFanOut(_:at:)``), closed by the sweeper.
public protocol NoticeWindowRepository: Sendable {
    /// The windows of these users, of every kind.
    func windows(appId: String, uids: [String]) async throws -> [NoticeWindow]
    /// Claims up to `limit` windows whose time is up (on PostgreSQL, each by one process).
    func claimDueWindows(limit: Int, now: Date, claim: Claim) async throws -> [NoticeWindow]
    /// In one transaction: stores the deliveries the closed windows let out (pending, due now: the
    /// outbox sends them) and reopens or removes each window — only while `claim`'s owner still
    /// holds it.
    func closeWindows(_ closes: [WindowClose], deliveries: [Delivery], claim: Claim) async throws
}
