import Foundation
import HeraldCore
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOPosix
import NIOSSL
import NIOTLS

/// One HTTP/2 connection over TLS (ALPN `h2`) to a provider, its streams multiplexed. After a
/// GOAWAY or a close it takes no new streams; its pool opens another.
///
/// Built for the push hot path: one handler speaks HTTP/2 straight on TLS (``StreamsHandler``: no
/// channel, state machine or frame object per stream); callers on other threads queue requests and
/// the event loop takes the whole queue in one turn, encoding requests' HEADERS and DATA into one
/// buffer written once. At most `maxOpenStreams` streams are open at once (fewer if the server
/// allows fewer); the other requests wait on the event loop.
public final class HTTP2Connection: Sendable {
    private let channel: any Channel
    private let handler: NIOLoopBound<StreamsHandler>
    private let shared: NIOLockedValueBox<Shared>

    /// What callers and the event loop share.
    struct Shared {
        var open = true
        var activeStreams = 0
        var queue: [PendingBatch] = []
        var drainScheduled = false
    }

    public var isUsable: Bool { shared.withLockedValue { $0.open } }
    public var activeStreams: Int { shared.withLockedValue { $0.activeStreams } }

    private init(channel: any Channel, handler: NIOLoopBound<StreamsHandler>, shared: NIOLockedValueBox<Shared>) {
        self.channel = channel
        self.handler = handler
        self.shared = shared
    }

    /// The TLS context connections with `tls` are made with. Making one loads its trust roots
    /// (the system's bundle: tens of milliseconds of CPU), so a caller opening several
    /// connections makes it once (``HTTP2ConnectionPool``).
    public static func context(for tls: TLSConfiguration) throws -> NIOSSLContext {
        var tls = tls
        // Offering HTTP/1.1 too lets a server that only speaks it say so (``HTTP2TransportError/notHTTP2``).
        tls.applicationProtocols = ["h2", "http/1.1"]
        return try NIOSSLContext(configuration: tls)
    }

    /// Connects with a TLS context made by ``context(for:)``.
    public static func connect(
        to endpoint: HTTP2Endpoint,
        context: NIOSSLContext,
        maxOpenStreams: Int = 100,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> HTTP2Connection {
        // SNI carries names only, never IP literals.
        let serverHostname = IPAddress(endpoint.host) == nil ? endpoint.host : nil
        let shared = NIOLockedValueBox(Shared())
        let authority = endpoint.port == 443 ? endpoint.host : endpoint.description
        let (channel, handler, negotiated) = try await ClientBootstrap(group: group)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .connect(host: endpoint.host, port: endpoint.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverHostname))
                    let negotiated = channel.eventLoop.makePromise(of: String?.self)
                    try sync.addHandler(ALPNObserver(negotiated: negotiated, timeout: .seconds(10)))
                    let handler = StreamsHandler(authority: authority, shared: shared, maxOpenStreams: maxOpenStreams)
                    try sync.addHandler(handler)
                    return (channel, NIOLoopBound(handler, eventLoop: channel.eventLoop), negotiated.futureResult)
                }
            }
        // A server that picked HTTP/1.1 by ALPN cannot take these requests; one that offered no
        // ALPN at all is spoken to in HTTP/2 (APNs has been seen to work so).
        let chosen: String?
        do {
            chosen = try await negotiated.get()
        } catch {
            try? await channel.close()
            throw error
        }
        if let chosen, chosen != "h2" {
            try? await channel.close()
            throw HTTP2TransportError.notHTTP2(chosen)
        }
        return HTTP2Connection(channel: channel, handler: handler, shared: shared)
    }

    public func close() async {
        shared.withLockedValue { $0.open = false }
        try? await channel.close()
    }

    /// Counts `count` streams a caller is about to send on this connection among its active ones.
    func reserve(_ count: Int) {
        shared.withLockedValue { $0.activeStreams += count }
    }

    /// Sends requests on new streams, written together and flushed once, and waits for every
    /// answer. The results are in the order of the requests. `reserved`: the caller counted them
    /// already (``reserve(_:)``).
    public func send(batch requests: [HTTP2Request], reserved: Bool = false) async -> [Result<HTTP2Response, HTTP2TransportError>] {
        guard !requests.isEmpty else { return [] }
        return await withUnsafeContinuation { continuation in
            enum Action { case refuse, schedule, none }
            let action = shared.withLockedValue { shared -> Action in
                guard shared.open else {
                    if reserved { shared.activeStreams -= requests.count }
                    return .refuse
                }
                if !reserved { shared.activeStreams += requests.count }
                shared.queue.append(PendingBatch(requests: requests, continuation: continuation))
                if shared.drainScheduled { return .none }
                shared.drainScheduled = true
                return .schedule
            }
            switch action {
            case .refuse:
                continuation.resume(returning: Array(repeating: .failure(.notProcessed("the connection is closed")), count: requests.count))
            case .schedule:
                let handler = handler
                channel.eventLoop.execute { handler.value.drain() }
            case .none:
                break
            }
        }
    }
}
