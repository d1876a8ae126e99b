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

    /// Ends the writer without a closing frame: the client has gone.
    func end() {
        continuation.finish()
    }

    /// Sends a closing frame after what is queued, then ends the connection.
    func close(code: UInt16, reason: String, last text: String? = nil) {
        if let text { continuation.yield(.text(text)) }
        continuation.yield(.close(code: code, reason: reason))
        continuation.finish()
    }
}
