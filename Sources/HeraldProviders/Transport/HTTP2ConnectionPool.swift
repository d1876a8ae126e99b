import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// Long-lived HTTP/2 connections to one endpoint with one TLS identity (one credential, one
/// environment). Requests go to the least busy open connection; another connection opens when
/// all carry `streamsPerConnection`, up to `maxConnections`; past that, a connection keeps
/// `streamsPerConnection` streams open and its other requests wait for them. A connection that
/// got GOAWAY or dropped is replaced, and requests it did not process are sent again.
public final class HTTP2ConnectionPool: Sendable {
    public let endpoint: HTTP2Endpoint
    private let tls: TLSConfiguration
    private let maxConnections: Int
    private let streamsPerConnection: Int
    private let group: any EventLoopGroup
    private let state = NIOLockedValueBox(State())

    struct State {
        var connections: [HTTP2Connection] = []
        var pending: Task<HTTP2Connection, any Error>?
        var opened = 0
        var closed = false
    }

    /// - Parameters:
    ///   - maxConnections: 16 connections of 100 streams keep 1,600 requests in flight: 16,000 a
    ///     second at a 100 ms round trip. (Fewer, fuller connections cost more CPU: see
    ///     ``StreamsHandler``.)
    public init(
        endpoint: HTTP2Endpoint,
        tls: TLSConfiguration,
        maxConnections: Int = 16,
        streamsPerConnection: Int = 100,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.endpoint = endpoint
        self.tls = tls
        self.maxConnections = maxConnections
        self.streamsPerConnection = streamsPerConnection
        self.group = group
    }

    /// How many connections this pool has opened in its life.
    public var connectionsOpened: Int { state.withLockedValue { $0.opened } }

    /// Sends requests together on one connection; those it did not process go again on another
    /// (up to `retries` times). The results are in the order of the requests.
    public func send(batch requests: [HTTP2Request], retries: Int = 2) async -> [Result<HTTP2Response, HTTP2TransportError>] {
        var results = [Result<HTTP2Response, HTTP2TransportError>](repeating: .failure(.notProcessed("not sent")), count: requests.count)
        var waiting = Array(requests.indices)
        var attempt = 0
        while !waiting.isEmpty {
            let answers: [Result<HTTP2Response, HTTP2TransportError>]
            do {
                answers = try await connection().send(batch: waiting.map { requests[$0] })
            } catch let error as HTTP2TransportError {
                answers = Array(repeating: .failure(error), count: waiting.count)
            } catch {
                answers = Array(repeating: .failure(.notProcessed("\(error)")), count: waiting.count)
            }
            attempt += 1
            var again: [Int] = []
            for (index, answer) in zip(waiting, answers) {
                results[index] = answer
                if case .failure(.notProcessed) = answer, attempt <= retries { again.append(index) }
            }
            waiting = again
        }
        return results
    }

    private enum Choice {
        case use(HTTP2Connection)
        case wait(Task<HTTP2Connection, any Error>)
    }

    func connection() async throws -> HTTP2Connection {
        let choice: Choice = try state.withLockedValue { state in
            guard !state.closed else { throw HTTP2TransportError.notProcessed("the pool is shut down") }
            state.connections.removeAll { !$0.isUsable }
            let best = state.connections.min { $0.activeStreams < $1.activeStreams }
            let room = state.connections.count + (state.pending == nil ? 0 : 1) < maxConnections
            if let best, best.activeStreams < streamsPerConnection || !room {
                return .use(best)
            }
            if let pending = state.pending { return .wait(pending) }
            let endpoint = endpoint
            let tls = tls
            let group = group
            let streams = streamsPerConnection
            let task = Task { try await HTTP2Connection.connect(to: endpoint, tls: tls, maxOpenStreams: streams, group: group) }
            state.pending = task
            state.opened += 1
            return .wait(task)
        }
        switch choice {
        case .use(let connection):
            return connection
        case .wait(let task):
            do {
                let connection = try await task.value
                state.withLockedValue { state in
                    if !state.connections.contains(where: { $0 === connection }) { state.connections.append(connection) }
                    if state.pending == task { state.pending = nil }
                }
                return connection
            } catch {
                state.withLockedValue { state in if state.pending == task { state.pending = nil } }
                if case HTTP2TransportError.notHTTP2 = error { throw error }
                throw HTTP2TransportError.notProcessed("cannot connect to \(endpoint): \(error)")
            }
        }
    }

    public func shutdown() async {
        let connections = state.withLockedValue { state in
            state.closed = true
            defer { state.connections = [] }
            return state.connections
        }
        for connection in connections { await connection.close() }
    }
}
