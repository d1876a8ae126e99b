import Synchronization

/// One table of cached values, read in bulk. A value loaded while its key changed is returned to
/// its caller but not kept (it may predate the change): every change is numbered, each key
/// remembers the number of its last change, and a load keeps only the keys that did not change
/// since it began. A key's value and the number of its change are one entry, so that a change
/// to a cached value (an unread count moved by every push) hashes its key once. (The entries are
/// bounded; past the limit the table starts again empty, and loads that began before keep
/// nothing.)
final class CacheTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        /// nil: not cached (only the change is remembered).
        var value: Value?
        /// The number of the key's last change; 0, none since the table started.
        var changedAt: UInt64 = 0

        /// Keeps a value loaded at `epoch`, unless the key changed since.
        mutating func keep(_ loaded: Value, loadedAt epoch: UInt64) {
            if changedAt <= epoch { value = loaded }
        }
    }

    private struct State {
        var epoch: UInt64 = 0
        var entries: [Key: Entry] = [:]
        /// Loads that began before this change keep nothing.
        var floor: UInt64 = 0

        /// Starts again empty: what is loaded meanwhile is not kept.
        mutating func clear() {
            entries.removeAll(keepingCapacity: true)
            floor = epoch
        }

        /// Numbers a change of `key` with the current epoch: in its entry, where it has one (whose
        /// index is returned, to change its value there), else in a new entry without a value
        /// (past `limit` entries, the table starts again first).
        mutating func noteChange(_ key: Key, limit: Int) -> [Key: Entry].Index? {
            if let index = entries.index(forKey: key) {
                entries.values[index].changedAt = epoch
                return index
            }
            if entries.count >= limit { clear() }
            entries[key] = Entry(value: nil, changedAt: epoch)
            return nil
        }
    }

    private let state = Mutex(State())
    /// Most entries kept; past it the table starts again empty.
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
                // Read where it is stored: binding the value would copy it.
                if let index = state.entries.index(forKey: key(id)), case .some = state.entries.values[index].value {
                    if let wanted = present(state.entries.values[index].value!) { found[id] = wanted }
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
            if state.entries.count + loaded.count > limit {
                state.clear()
                guard epoch >= state.floor else { return }
            }
            // One hash a key: the entry is made or kept where it is stored.
            for (key, value) in loaded { state.entries[key, default: Entry()].keep(value, loadedAt: epoch) }
        }
    }

    func forget(_ keys: some Sequence<Key>) {
        state.withLock { state in
            state.epoch &+= 1
            for key in keys {
                if let index = state.noteChange(key, limit: limit) { state.entries.values[index].value = nil }
            }
        }
    }

    func forgetAll() {
        state.withLock { state in
            state.epoch &+= 1
            state.clear()
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
                // Through the index, the value is changed where it is stored (never copied).
                if let index = state.noteChange(key, limit: limit), case .some = state.entries.values[index].value {
                    change(position, &state.entries.values[index].value!)
                }
            }
        }
    }
}
