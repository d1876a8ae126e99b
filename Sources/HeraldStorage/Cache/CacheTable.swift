import Synchronization

/// One table of cached values, read in bulk. A value loaded while its key changed is returned to
/// its caller but not kept (it may predate the change): every change is numbered, each key
/// remembers the number of its last change, and a load keeps only the keys that did not change
/// since it began. (The memory of changes is bounded; past it, loads that began before its
/// start keep nothing.)
final class CacheTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var epoch: UInt64 = 0
        var values: [Key: Value] = [:]
        var changedAt: [Key: UInt64] = [:]
        /// Loads that began before this change keep nothing.
        var floor: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Most values kept; past it the table starts again empty.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The cached values of the keys `ids` name (`key` of each) by id, the ids to load, and the
    /// epoch to store them under. A caller that knows its values by a part of the key (a user's
    /// by uid) reads them without a second dictionary; `present` gives what the caller wants of
    /// a cached value, nil to leave it out (a user known to be absent), so that the values are
    /// not copied into a second dictionary to drop those either.
    func lookup<ID: Hashable & Sendable, IDs: Sequence<ID>, Found>(
        _ ids: IDs,
        key: (ID) -> Key,
        present: (Value) -> Found?
    ) -> (found: [ID: Found], missing: [ID], epoch: UInt64) {
        state.withLock { state in
            var found: [ID: Found] = [:]
            found.reserveCapacity(ids.underestimatedCount)
            var missing: [ID] = []
            for id in ids {
                if let index = state.values.index(forKey: key(id)) {
                    if let value = present(state.values.values[index]) { found[id] = value }
                } else {
                    missing.append(id)
                }
            }
            return (found, missing, state.epoch)
        }
    }

    /// Keeps loaded values, but those whose key changed since `epoch`.
    func store(_ loaded: [Key: Value], loadedAt epoch: UInt64) {
        state.withLock { state in
            guard epoch >= state.floor else { return }
            if state.values.count + loaded.count > limit {
                state.values.removeAll(keepingCapacity: true)
            }
            for (key, value) in loaded {
                if let changed = state.changedAt[key], changed > epoch { continue }
                state.values[key] = value
            }
        }
    }

    func forget(_ keys: some Sequence<Key>) {
        state.withLock { state in
            state.epoch &+= 1
            for key in keys {
                state.values[key] = nil
                Self.noteChange(key, in: &state)
            }
        }
    }

    func forgetAll() {
        state.withLock { state in
            state.epoch &+= 1
            state.values.removeAll(keepingCapacity: true)
            state.changedAt.removeAll(keepingCapacity: true)
            state.floor = state.epoch
        }
    }

    /// Changes a cached value in place (a change this process made and knows the result of).
    func update(_ key: Key, _ change: (inout Value) -> Void) {
        update([key]) { _, value in change(&value) }
    }

    /// Changes the cached values of `keys` in place, under one lock, as one change: `change`
    /// gets each key's position in `keys` with its value (keys not cached are only noted).
    func update(_ keys: [Key], _ change: (Int, inout Value) -> Void) {
        guard !keys.isEmpty else { return }
        state.withLock { state in
            state.epoch &+= 1
            for (position, key) in keys.enumerated() {
                Self.noteChange(key, in: &state)
                // Through the index, the value is changed where it is stored (never copied).
                if let index = state.values.index(forKey: key) { change(position, &state.values.values[index]) }
            }
        }
    }

    private static func noteChange(_ key: Key, in state: inout State) {
        if state.changedAt.count >= 100_000 {
            state.changedAt.removeAll(keepingCapacity: true)
            state.floor = state.epoch
        }
        state.changedAt[key] = state.epoch
    }
}
