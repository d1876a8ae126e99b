import Foundation
import HeraldModels

/// Where presence is kept: in memory for one process (SQLite), in the database for several
/// (PostgreSQL), where each process heartbeats and the sessions of a process that stopped
/// heartbeating count as offline.
public protocol PresenceStore: Sendable {
    /// This process is alive.
    func heartbeat(instance: String, at: Date) async throws
    /// A socket of the session opened on `record.instance`.
    func markOnline(_ record: PresenceRecord) async throws
    /// The session's last socket on `instance` closed at `at`.
    func markOffline(appId: String, sessionId: String, instance: String, at: Date) async throws
    /// The presence rows of these users (or sessions) on processes that heartbeated at or after
    /// `liveSince`, online or within any grace period.
    func presence(appId: String, uids: [String], liveSince: Date) async throws -> [PresenceRecord]
    func presence(appId: String, sessionIds: [String], liveSince: Date) async throws -> [PresenceRecord]
    /// Forgets rows offline since before `offlineBefore`, and processes (with their rows) silent
    /// since before `deadBefore`.
    func purgePresence(offlineBefore: Date, deadBefore: Date) async throws
    /// This process stops: its row and its sockets' presence go at once, so no other process
    /// waits for it (a strict cache change) or counts its users online.
    func retire(instance: String) async throws
}
