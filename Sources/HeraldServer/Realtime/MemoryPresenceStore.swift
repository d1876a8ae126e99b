import Foundation
import HeraldCore

/// Presence for a single process (SQLite): the same contract as the database's, in memory.
actor MemoryPresenceStore: PresenceStore {
    private var instances: [String: Date] = [:]
    /// session id → instance → record
    private var records: [String: [String: PresenceRecord]] = [:]
    private var byUser: [String: Set<String>] = [:]  // "appId\u{0}uid" → session ids

    func heartbeat(instance: String, at date: Date) {
        instances[instance] = date
    }

    func markOnline(_ record: PresenceRecord) {
        var stored = record
        if let existing = records[record.sessionId]?[record.instance], existing.offlineAt == nil { stored.since = existing.since }
        stored.offlineAt = nil
        records[record.sessionId, default: [:]][record.instance] = stored
        byUser[Self.key(record.appId, record.uid), default: []].insert(record.sessionId)
    }

    func markOffline(appId: String, sessionId: String, instance: String, at date: Date) {
        guard records[sessionId]?[instance]?.appId == appId else { return }
        records[sessionId]?[instance]?.offlineAt = date
    }

    func presence(appId: String, uids: [String], liveSince: Date) -> [PresenceRecord] {
        presence(appId: appId, sessionIds: uids.flatMap { byUser[Self.key(appId, $0)] ?? [] }, liveSince: liveSince)
    }

    func presence(appId: String, sessionIds: [String], liveSince: Date) -> [PresenceRecord] {
        sessionIds.flatMap { id in
            (records[id]?.values).map(Array.init) ?? []
        }.filter { $0.appId == appId && (instances[$0.instance] ?? .distantPast) >= liveSince }
    }

    func purgePresence(offlineBefore: Date, deadBefore: Date) {
        let dead = Set(instances.filter { $0.value < deadBefore }.keys)
        drop { dead.contains($0.instance) || ($0.offlineAt.map { $0 < offlineBefore } ?? false) }
        for id in dead { instances[id] = nil }
    }

    func retire(instance: String) {
        drop { $0.instance == instance }
        instances[instance] = nil
    }

    /// Forgets the records `gone` picks.
    private func drop(_ gone: (PresenceRecord) -> Bool) {
        for (sessionId, byInstance) in records {
            for (instance, record) in byInstance where gone(record) {
                records[sessionId]?[instance] = nil
            }
            if records[sessionId]?.isEmpty == true {
                records[sessionId] = nil
                let key = Self.key(byInstance.values.first!.appId, byInstance.values.first!.uid)
                byUser[key]?.remove(sessionId)
                if byUser[key]?.isEmpty == true { byUser[key] = nil }
            }
        }
    }

    private static func key(_ appId: String, _ uid: String) -> String { appId + "\u{0}" + uid }
}
