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
