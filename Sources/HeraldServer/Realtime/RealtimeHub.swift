import Foundation
import HeraldCore
import NIOConcurrencyHelpers

/// The open WebSockets of this process, by session.
final class RealtimeHub: Sendable {
    /// session id → connection id → connection
    private let table = NIOLockedValueBox<[String: [String: RealtimeConnection]]>([:])

    /// Adds a connection; true when it is the session's first on this process.
    func add(_ connection: RealtimeConnection) -> Bool {
        table.withLockedValue { table in
            table[connection.sessionId, default: [:]][connection.id] = connection
            return table[connection.sessionId]!.count == 1
        }
    }

    /// Removes a connection; true when it was the session's last on this process.
    func remove(_ connection: RealtimeConnection) -> Bool {
        table.withLockedValue { table in
            guard table[connection.sessionId]?.removeValue(forKey: connection.id) != nil else { return false }
            if table[connection.sessionId]!.isEmpty {
                table[connection.sessionId] = nil
                return true
            }
            return false
        }
    }

    /// Queues `text` on every connection of these sessions of the app; returns the sessions reached.
    func send(_ text: String, appId: String, sessionIds: some Sequence<String>) -> Set<String> {
        let targets = table.withLockedValue { table in
            sessionIds.flatMap { id in table[id].map { Array($0.values) } ?? [] }.filter { $0.appId == appId }
        }
        var reached = Set<String>()
        for connection in targets where connection.send(text) { reached.insert(connection.sessionId) }
        return reached
    }

    /// Closes every connection of the session, after telling it why.
    func close(appId: String, sessionId: String, reason: String, last text: String) {
        let targets = table.withLockedValue { table in table[sessionId].map { Array($0.values) } ?? [] }
        for connection in targets where connection.appId == appId {
            connection.close(code: 4001, reason: reason, last: text)
        }
    }

    /// Closes every connection (the server is stopping).
    func closeAll(code: UInt16, reason: String) {
        let all = table.withLockedValue { table in table.values.flatMap(\.values) }
        for connection in all { connection.close(code: code, reason: reason) }
    }

    /// The connections whose session expired by `now`.
    func expired(now: Date) -> [RealtimeConnection] {
        table.withLockedValue { table in
            table.values.flatMap { byConnection in
                byConnection.values.filter { connection in connection.session.expiresAt.map { $0 <= now } ?? false }
            }
        }
    }

    var count: Int { table.withLockedValue { $0.values.reduce(0) { $0 + $1.count } } }
    func sessionIds(appId: String) -> [String] {
        table.withLockedValue { table in table.compactMap { id, byConnection in byConnection.values.first?.appId == appId ? id : nil } }
    }
}
