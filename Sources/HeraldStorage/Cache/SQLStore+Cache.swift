import Foundation
import HeraldCore

/// A value that stands for "nothing stored" for a key a load did not return: no user, no
/// tokens, no preferences.
protocol AbsentValue {
    static var absent: Self { get }
}

extension Optional: AbsentValue {
    static var absent: Self { nil }
}

extension Array: AbsentValue {
    static var absent: Self { [] }
}

extension Dictionary: AbsentValue {
    static var absent: Self { [:] }
}

extension RecipientRecord: AbsentValue {
    static var absent: Self { .empty }
}

extension SQLStore {
    /// Per-user values of an app: the cached ones, the rest loaded in chunks of 1,000 (`load`
    /// returns the users it found; the others are stored as absent) and kept.
    func perUser<Value: Sendable & AbsentValue>(
        _ table: CacheTable<StoreCache.UserKey, Value>,
        appId: String,
        uids: [String],
        load: ([String]) async throws -> [String: Value]
    ) async throws -> [String: Value] {
        try await perUser(table, appId: appId, uids: uids, present: { $0 }, load: load)
    }

    /// The same for values that may be absent (a user, preferences), without the absent ones.
    func perUser<Wrapped: Sendable>(
        _ table: CacheTable<StoreCache.UserKey, Wrapped?>,
        appId: String,
        uids: [String],
        load: ([String]) async throws -> [String: Wrapped?]
    ) async throws -> [String: Wrapped] {
        try await perUser(table, appId: appId, uids: uids, present: { $0 }, load: load)
    }

    /// Each value as `present` makes it (nil leaves it out).
    private func perUser<Value: Sendable & AbsentValue, Found>(
        _ table: CacheTable<StoreCache.UserKey, Value>,
        appId: String,
        uids: [String],
        present: (Value) -> Found?,
        load: ([String]) async throws -> [String: Value]
    ) async throws -> [String: Found] {
        try await cached(
            table,
            uids,
            key: { StoreCache.UserKey(appId: appId, uid: $0) },
            present: present,
            load: { missing in
                var loaded: [String: Value] = [:]
                loaded.reserveCapacity(missing.count)
                for chunk in missing.chunks(of: 1_000) {
                    let found = try await load(chunk)
                    // Not `loaded[uid] = found[uid] ?? .absent`: that reads as `Value?.absent`,
                    // nil, and assigning nil drops the key — every user without preferences,
                    // mutes or unread counts was read again on every batch.
                    for uid in chunk { loaded.updateValue(found[uid] ?? Value.absent, forKey: uid) }
                }
                return loaded
            }
        )
    }
}
