import Foundation
import HTTPTypes
import HeraldModels
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers

/// A session's WebSocket in a test: connects to `/v1/me/ws`, collects the envelopes the server
/// sends, and can send text, ping and close. Protocol-level pings are answered (by the client
/// library), as every real client does.
public final class RealtimeTestClient: Sendable {
    private let inbox = NIOLockedValueBox(Inbox())
    private let outgoing: AsyncStream<String>.Continuation
    private let task: NIOLockedValueBox<Task<Void, Never>?> = .init(nil)

    struct Inbox {
        var envelopes: [RealtimeEnvelope] = []
        var closed = false
        var closeCode: Int?
        var error: String?
    }

    /// Connects and waits for the server's `hello`; throws if the server refuses the upgrade.
    public static func connect(port: Int, token: String, viaQuery: Bool = false, host: String = "127.0.0.1") async throws -> RealtimeTestClient {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let client = RealtimeTestClient(outgoing: continuation)
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = 1 << 20
        var url = "ws://\(host):\(port)/v1/me/ws"
        if viaQuery {
            url += "?authToken=\(token)"
        } else {
            configuration.additionalHeaders[.authorization] = "Bearer \(token)"
        }
        let logger = {
            var logger = Logger(label: "herald.test.ws")
            logger.logLevel = .critical
            return logger
        }()
        let inbox = client.inbox
        let frozen = configuration
        let address = url
        client.task.withLockedValue {
            $0 = Task {
                do {
                    let close = try await WebSocketClient.connect(url: address, configuration: frozen, logger: logger) { inbound, outbound, _ in
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask {
                                for try await message in inbound.messages(maxSize: 1 << 20) {
                                    guard case .text(let text) = message else { continue }
                                    if let envelope = try? JSONDecoder().decode(RealtimeEnvelope.self, from: Data(text.utf8)) {
                                        inbox.withLockedValue { $0.envelopes.append(envelope) }
                                    }
                                }
                            }
                            group.addTask {
                                for await text in stream { try await outbound.write(.text(text)) }
                                try await outbound.close(.normalClosure, reason: "bye")
                            }
                            _ = try await group.next()
                            group.cancelAll()
                        }
                    }
                    inbox.withLockedValue {
                        $0.closed = true
                        if let code = close?.closeCode { $0.closeCode = Self.number(code) }
                    }
                } catch {
                    inbox.withLockedValue {
                        $0.closed = true
                        $0.error = "\(error)"
                    }
                }
            }
        }
        guard case .hello = try await client.next(timeout: .seconds(10)) else {
            client.close()
            throw TestFailure("no hello from the server: \(client.inbox.withLockedValue { $0.error ?? "closed" })")
        }
        return client
    }

    private init(outgoing: AsyncStream<String>.Continuation) {
        self.outgoing = outgoing
    }

    private static func number(_ code: some Any) -> Int? {
        // WebSocketErrorCode renders as its number for unknown codes and by name otherwise.
        let text = "\(code)"
        if let value = Int(text.filter(\.isNumber)), !text.filter(\.isNumber).isEmpty { return value }
        return ["normalClosure": 1000, "goingAway": 1001, "protocolError": 1002, "policyViolation": 1008].first { text.contains($0.key) }?.value
    }

    /// The next envelope not yet taken, waiting up to `timeout`; nil if none came (or the socket closed).
    public func next(timeout: Duration = .seconds(5)) async throws -> RealtimeEnvelope? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let (envelope, closed) = inbox.withLockedValue { inbox -> (RealtimeEnvelope?, Bool) in
                if !inbox.envelopes.isEmpty { return (inbox.envelopes.removeFirst(), false) }
                return (nil, inbox.closed)
            }
            if let envelope { return envelope }
            if closed { return nil }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Envelopes received and not yet taken, without waiting.
    public var pending: [RealtimeEnvelope] { inbox.withLockedValue { $0.envelopes } }

    public func send(_ text: String) {
        outgoing.yield(text)
    }

    public func close() {
        outgoing.finish()
    }

    public var isClosed: Bool { inbox.withLockedValue { $0.closed } }
    /// The close code the server sent, once closed.
    public var closeCode: Int? { inbox.withLockedValue { $0.closeCode } }

    /// Waits until the socket is closed; false if it is still open after `timeout`.
    public func waitClosed(timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if isClosed { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return isClosed
    }
}
