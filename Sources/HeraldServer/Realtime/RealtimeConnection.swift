import Foundation
import HeraldCore
import NIOConcurrencyHelpers

/// One open WebSocket of a session on this process. What it should send goes through a bounded
/// stream that the socket's writer drains; a client too slow to keep up is disconnected rather
/// than allowed to grow the server's memory.
final class RealtimeConnection: Sendable {
    enum Outgoing: Sendable {
        case text(String)
        /// Send a last envelope, then close with a WebSocket close code.
        case close(code: UInt16, reason: String)
    }

    let id: String
    let session: Session
    let outgoing: AsyncStream<Outgoing>
    private let continuation: AsyncStream<Outgoing>.Continuation

    /// Frames queued for a client before it counts as too slow.
    static let queueLimit = 1_000

    init(session: Session) {
        self.id = Identifier.hex(bytes: 8)
        self.session = session
        (outgoing, continuation) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .bufferingOldest(Self.queueLimit))
    }

    var appId: String { session.appId }
    var uid: String { session.uid }
    var sessionId: String { session.id }

    /// Queues a frame; false when the connection is closing or its queue is full.
    @discardableResult
    func send(_ text: String) -> Bool {
        if case .enqueued = continuation.yield(.text(text)) { return true }
        continuation.yield(.close(code: 1008, reason: "too slow"))
        continuation.finish()
        return false
    }

    /// Sends a closing frame after what is queued, then ends the connection.
    func close(code: UInt16, reason: String, last text: String? = nil) {
        if let text { continuation.yield(.text(text)) }
        continuation.yield(.close(code: code, reason: reason))
        continuation.finish()
    }
}

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

    var count: Int { table.withLockedValue { $0.values.reduce(0) { $0 + $1.count } } }
    func sessionIds(appId: String) -> [String] {
        table.withLockedValue { table in table.compactMap { id, byConnection in byConnection.values.first?.appId == appId ? id : nil } }
    }
}

