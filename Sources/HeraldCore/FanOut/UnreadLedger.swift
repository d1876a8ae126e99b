import Foundation
import Synchronization

/// Unread counts moved by fan-outs not yet committed, added to the stored counts when a badge is
/// worked out: two batches in flight for the same user give badges 1 and 2, not 1 and 1.
public final class UnreadLedger: Sendable {
    struct User: Hashable {
        var appId: String
        var uid: String

        /// By the uid alone (most servers hold one app); `==` tells apps apart.
        func hash(into hasher: inout Hasher) { hasher.combine(uid) }
    }

    private let pending = Mutex<[User: [String: Int]]>([:])  // user → conversation → count

    public init() {}

    public func add(appId: String, _ keys: [UnreadKey], by delta: Int = 1) {
        guard !keys.isEmpty, delta != 0 else { return }
        pending.withLock { pending in
            for key in keys {
                let user = User(appId: appId, uid: key.uid)
                // Changed where they are stored, through the index: each user hashed once (a
                // count back to zero is removed without hashing it again), no dictionary copied.
                if let index = pending.index(forKey: user) {
                    if Self.move(&pending.values[index], key.conversationId, by: delta) { pending.remove(at: index) }
                } else {
                    pending[user] = [key.conversationId: delta]
                }
            }
        }
    }

    /// Moves one conversation's count, dropping it at zero; true when no count is left.
    private static func move(_ counts: inout [String: Int], _ conversation: String, by delta: Int) -> Bool {
        if let index = counts.index(forKey: conversation) {
            counts.values[index] += delta
            if counts.values[index] == 0 { counts.remove(at: index) }
        } else {
            counts[conversation] = delta
        }
        return counts.isEmpty
    }

    /// Adds the pending increments of these users to their records' unread counts.
    public func merge(appId: String, uids: [String], into records: inout [String: RecipientRecord]) {
        pending.withLock { pending in
            guard !pending.isEmpty else { return }
            for uid in uids {
                guard let extra = pending[User(appId: appId, uid: uid)] else { continue }
                for (conversation, count) in extra { records[uid, default: .empty].unread[conversation, default: 0] += count }
            }
        }
    }

    /// Whether nothing is pending (every increment was committed or given back).
    public var isEmpty: Bool { pending.withLock { $0.isEmpty } }
}
