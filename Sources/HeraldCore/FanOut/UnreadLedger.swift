import Foundation
import Synchronization

/// Unread counts moved by fan-outs not yet committed, added to the stored counts when a badge is
/// worked out: two batches in flight for the same user give badges 1 and 2, not 1 and 1.
public final class UnreadLedger: Sendable {
    struct User: Hashable {
        var appId: String
        var uid: String
    }

    private let pending = Mutex<[User: [String: Int]]>([:])  // user → conversation → count

    public init() {}

    public func add(appId: String, _ keys: [UnreadKey], by delta: Int = 1) {
        guard !keys.isEmpty else { return }
        pending.withLock { pending in
            for key in keys {
                let user = User(appId: appId, uid: key.uid)
                let count = pending[user, default: [:]][key.conversationId, default: 0] + delta
                if count == 0 {
                    pending[user]?[key.conversationId] = nil
                    if pending[user]?.isEmpty == true { pending[user] = nil }
                } else {
                    pending[user, default: [:]][key.conversationId] = count
                }
            }
        }
    }

    /// `stored` with the pending increments of these users added.
    public func merged(appId: String, uids: [String], into stored: [String: [String: Int]]) -> [String: [String: Int]] {
        pending.withLock { pending in
            guard !pending.isEmpty else { return stored }
            var counts = stored
            for uid in uids {
                guard let extra = pending[User(appId: appId, uid: uid)] else { continue }
                for (conversation, count) in extra { counts[uid, default: [:]][conversation, default: 0] += count }
            }
            return counts
        }
    }

    /// Whether nothing is pending (every increment was committed or given back).
    public var isEmpty: Bool { pending.withLock { $0.isEmpty } }
}
