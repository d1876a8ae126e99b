import Foundation
import HeraldModels

/// One WebSocket presence of a session on one Herald process. `offlineAt` is nil while a socket
/// is open, and the time the last one closed otherwise (the session counts as online for the
/// app's grace period after that).
public struct PresenceRecord: Sendable, Equatable {
    public var appId: String
    public var uid: String
    public var sessionId: String
    /// The Herald process that holds (or held) the socket.
    public var instance: String
    public var since: Date
    public var offlineAt: Date?

    public init(appId: String, uid: String, sessionId: String, instance: String, since: Date, offlineAt: Date? = nil) {
        self.appId = appId
        self.uid = uid
        self.sessionId = sessionId
        self.instance = instance
        self.since = since
        self.offlineAt = offlineAt
    }

    /// Online now, given the app's grace period.
    public func isOnline(at now: Date, grace: TimeInterval) -> Bool {
        guard let offlineAt else { return true }
        return now.timeIntervalSince(offlineAt) < grace
    }

    /// A socket is open now: in-app delivery can reach it.
    public var isConnected: Bool { offlineAt == nil }
}

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
}

/// The delivery engine's question: which sessions of these users are online now?
public protocol PresenceView: Sendable {
    /// Online sessions (within the app's grace period) by uid; users with none are absent.
    func onlineSessions(appId: String, uids: [String]) async throws -> [String: [PresenceRecord]]
}

/// Sends envelopes to sessions over their WebSockets, wherever they are connected.
public protocol RealtimeDelivery: Sendable {
    /// Returns the ids of the sessions the envelope was handed to (an open socket on this process,
    /// or on a live process it was forwarded to).
    func deliver(_ envelope: RealtimeEnvelope, appId: String, sessionIds: [String]) async -> Set<String>
    /// Every connected session of these users.
    func deliver(_ envelope: RealtimeEnvelope, appId: String, uids: [String]) async -> Set<String>
}

/// A publish/subscribe channel between Herald processes (PostgreSQL `LISTEN/NOTIFY`).
public protocol MessageBus: Sendable {
    func publish(_ payload: String, channel: String) async throws
    /// Calls `handler` for every message on `channel` until the task is cancelled.
    func listen(channel: String, handler: @escaping @Sendable (String) async -> Void) async throws
}

/// Sendbird's two policies for users with several devices.
public enum MultiDevicePolicy: String, Codable, Sendable, CaseIterable {
    /// Push only when no session of the user is online.
    case allOffline = "all_offline"
    /// Push to the tokens of the sessions that are offline.
    case anyOffline = "any_offline"
}
