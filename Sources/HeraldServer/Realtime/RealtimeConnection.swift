import Foundation
import HeraldCore
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// One open WebSocket of a session on this process. What it should send is written to the
/// socket's channel from any thread; a client too slow to keep up (``queueLimit`` frames written
/// but not yet taken by its socket) is disconnected rather than allowed to grow the server's memory.
///
/// A socket holds no task of its own: its frames are read and answered by a channel handler
/// (``RealtimeSocketHandler``) on the connection's event loop, so an idle socket costs its channel
/// and this object — a few kilobytes, where a task per socket cost tens.
final class RealtimeConnection: Sendable {
    let id: String
    let session: Session
    private let channel: any Channel
    private let state = NIOLockedValueBox(State())

    /// Frames queued for a client before it counts as too slow.
    static let queueLimit = 1_000

    private struct State {
        /// `hello` has gone out: frames are written as they come (before, they wait, so that
        /// `hello` is always the first).
        var open = false
        var waiting: [String] = []
        /// Frames handed to the channel and not yet written to the socket.
        var queued = 0
        /// A close frame is on its way (or the client went): nothing more is sent.
        var closing = false
    }

    init(session: Session, channel: any Channel) {
        self.id = Identifier.hex(bytes: 8)
        self.session = session
        self.channel = channel
    }

    var appId: String { session.appId }
    var uid: String { session.uid }
    var sessionId: String { session.id }

    /// Sends `hello`, then what was sent meanwhile.
    func open(hello: String) {
        state.withLockedValue { state in
            guard !state.closing else { return }
            state.open = true
            state.queued += 1 + state.waiting.count
            // Handed to the event loop in this order while the lock is held: no frame of another
            // thread can come between.
            enqueue([hello] + state.waiting)
            state.waiting = []
        }
    }

    /// Queues a frame; false when the connection is closing or its queue is full (then it closes).
    @discardableResult
    func send(_ text: String) -> Bool {
        enum Outcome { case sent, refused, tooSlow }
        let outcome = state.withLockedValue { state -> Outcome in
            guard !state.closing else { return .refused }
            guard state.queued + state.waiting.count < Self.queueLimit else {
                state.closing = true
                return .tooSlow
            }
            if state.open {
                state.queued += 1
                enqueue([text])
            } else {
                state.waiting.append(text)
            }
            return .sent
        }
        if outcome == .tooSlow { closeSocket(code: 1008, reason: "too slow", last: nil) }
        return outcome == .sent
    }

    /// Sends a closing frame after what is queued (and `text` last, if given), then closes the
    /// connection once the client answers or ``RealtimeSocketHandler/closeTimeout`` passes.
    func close(code: UInt16, reason: String, last text: String? = nil) {
        let first = state.withLockedValue { state -> Bool in
            defer { state.closing = true }
            return !state.closing
        }
        if first { closeSocket(code: code, reason: reason, last: text) }
    }

    /// The client went: nothing more is sent.
    func ended() {
        state.withLockedValue { $0.closing = true }
    }

    private func written() {
        state.withLockedValue { $0.queued -= 1 }
    }

    /// Hands frames to the event loop, in order (``EventLoop/execute(_:)`` only enqueues, so this
    /// may run under the lock).
    private func enqueue(_ texts: [String]) {
        let channel = self.channel
        channel.eventLoop.execute {
            for text in texts {
                let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: text))
                let promise = channel.eventLoop.makePromise(of: Void.self)
                promise.futureResult.whenComplete { _ in self.written() }
                channel.write(frame, promise: promise)
            }
            channel.flush()
        }
    }

    private func closeSocket(code: UInt16, reason: String, last text: String?) {
        let channel = self.channel
        channel.eventLoop.execute {
            if let handler = try? channel.pipeline.syncOperations.handler(type: RealtimeSocketHandler.self) {
                handler.close(code: code, reason: reason, last: text)
            } else {
                channel.close(promise: nil)
            }
        }
    }
}
