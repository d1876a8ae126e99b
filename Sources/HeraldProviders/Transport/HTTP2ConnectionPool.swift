import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// Long-lived HTTP/2 connections to one endpoint with one TLS identity (one credential, one
/// environment). A batch goes out in runs of `streamsPerConnection` requests, each run on the
/// least busy open connection; another connection opens when all carry `streamsPerConnection`
/// streams, up to `maxConnections`; past that, a connection keeps `streamsPerConnection` streams
/// open and its other requests wait for them. A connection that got GOAWAY or dropped is
/// replaced, and requests it did not process are sent again.
public final class HTTP2ConnectionPool: Sendable {
    public let endpoint: HTTP2Endpoint
    private let tls: TLSConfiguration
    private let maxConnections: Int
    private let streamsPerConnection: Int
    private let group: any EventLoopGroup
    private let state = NIOLockedValueBox(State())
    /// The TLS context of every connection the pool opens, made at its first: a context per
    /// connection loaded the trust roots again for each (measured: a server whose APNs endpoint
    /// refused connections spent ~20 % of a core on it, retrying).
    private let context = NIOLockedValueBox<(made: NIOSSLContext?, count: Int)>((nil, 0))

    struct State {
        var connections: [HTTP2Connection] = []
        /// Connections being opened, with the streams already promised to each.
        var opening: [Opening] = []
        var opened = 0
        var closed = false
    }

    struct Opening {
        var task: Task<HTTP2Connection, any Error>
        var promised: Int
    }

    /// - Parameters:
    ///   - maxConnections: 16 connections of 100 streams keep 1,600 requests in flight: 16,000 a
    ///     second at a 100 ms round trip.
    public init(
        endpoint: HTTP2Endpoint,
        tls: TLSConfiguration,
        maxConnections: Int = 16,
        streamsPerConnection: Int = 100,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.endpoint = endpoint
        self.tls = tls
        self.maxConnections = max(1, maxConnections)
        self.streamsPerConnection = max(1, streamsPerConnection)
        self.group = group
    }

    /// How many connections this pool has opened in its life.
    public var connectionsOpened: Int { state.withLockedValue { $0.opened } }

    /// How many TLS contexts this pool has made in its life: one once it has connected.
    public var tlsContextsMade: Int { context.withLockedValue { $0.count } }

    /// The pool's TLS context, made the first time it is asked for (under the lock: openers side
    /// by side wait for the one being made rather than each making theirs).
    func tlsContext() throws -> NIOSSLContext {
        try context.withLockedValue { context in
            if let made = context.made { return made }
            let made = try HTTP2Connection.context(for: tls)
            context = (made, context.count + 1)
            return made
        }
    }

    /// Sends requests, `streamsPerConnection` at a time on one connection, the runs side by side;
    /// those a connection did not process go again on another (up to `retries` times). The
    /// results are in the order of the requests.
    public func send(batch requests: [HTTP2Request], retries: Int = 2) async -> [Result<HTTP2Response, HTTP2TransportError>] {
        guard requests.count > streamsPerConnection else { return await sendRun(requests, retries: retries) }
        return await withTaskGroup(of: (Int, [Result<HTTP2Response, HTTP2TransportError>]).self) { runs in
            for start in stride(from: 0, to: requests.count, by: streamsPerConnection) {
                let run = Array(requests[start..<min(start + streamsPerConnection, requests.count)])
                runs.addTask { (start, await self.sendRun(run, retries: retries)) }
            }
            var results = [Result<HTTP2Response, HTTP2TransportError>](repeating: .failure(.notProcessed("not sent")), count: requests.count)
            for await (start, answers) in runs {
                results.replaceSubrange(start..<start + answers.count, with: answers)
            }
            return results
        }
    }

    /// Sends requests together on one connection; those it did not process go again on another.
    private func sendRun(_ requests: [HTTP2Request], retries: Int) async -> [Result<HTTP2Response, HTTP2TransportError>] {
        var results = [Result<HTTP2Response, HTTP2TransportError>](repeating: .failure(.notProcessed("not sent")), count: requests.count)
        var waiting = Array(requests.indices)
        var attempt = 0
        while !waiting.isEmpty {
            let answers: [Result<HTTP2Response, HTTP2TransportError>]
            do {
                answers = try await connection(reserving: waiting.count).send(batch: waiting.map { requests[$0] }, reserved: true)
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

    /// The connection for `count` more streams, those streams counted on it at once (so that runs
    /// choosing side by side spread over the connections): the least busy one with room, else one
    /// being opened with room, else a new one while there may be more, else the least busy.
    func connection(reserving count: Int) async throws -> HTTP2Connection {
        let choice: Choice = try state.withLockedValue { state in
            guard !state.closed else { throw HTTP2TransportError.notProcessed("the pool is shut down") }
            state.connections.removeAll { !$0.isUsable }
            let best = state.connections.min { $0.activeStreams < $1.activeStreams }
            if let best, best.activeStreams < streamsPerConnection {
                best.reserve(count)
                return .use(best)
            }
            if let index = state.opening.indices.first(where: { state.opening[$0].promised < streamsPerConnection }) {
                state.opening[index].promised += count
                return .wait(state.opening[index].task)
            }
            if state.connections.count + state.opening.count < maxConnections || (best == nil && state.opening.isEmpty) {
                let (endpoint, group, streams) = (endpoint, group, streamsPerConnection)
                let task = Task { try await HTTP2Connection.connect(to: endpoint, context: self.tlsContext(), maxOpenStreams: streams, group: group) }
                state.opening.append(Opening(task: task, promised: count))
                state.opened += 1
                return .wait(task)
            }
            if let best {
                best.reserve(count)
                return .use(best)
            }
            let least = state.opening.indices.min { state.opening[$0].promised < state.opening[$1].promised }!
            state.opening[least].promised += count
            return .wait(state.opening[least].task)
        }
        switch choice {
        case .use(let connection):
            return connection
        case .wait(let task):
            do {
                let connection = try await task.value
                state.withLockedValue { state in
                    if !state.connections.contains(where: { $0 === connection }) { state.connections.append(connection) }
                    state.opening.removeAll { $0.task == task }
                }
                connection.reserve(count)
                return connection
            } catch {
                state.withLockedValue { state in state.opening.removeAll { $0.task == task } }
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
