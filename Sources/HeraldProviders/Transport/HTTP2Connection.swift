import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import NIOTLS
import HeraldCore

/// Where a provider listens.
public struct HTTP2Endpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int = 443) {
        self.host = host
        self.port = port
    }

    /// `https://host[:port]`, as the `HERALD_*_URL` overrides give it.
    public init?(url: String) {
        guard let components = URLComponents(string: url), components.scheme == "https", let host = components.host else { return nil }
        self.init(host: host, port: components.port ?? 443)
    }

    public var description: String { "\(host):\(port)" }
}

public struct HTTP2Request: Sendable {
    public var method: String
    public var path: String
    public var headers: HPACKHeaders
    public var body: ByteBuffer?
    public var timeout: TimeAmount

    public init(method: String = "POST", path: String, headers: HPACKHeaders = [:], body: ByteBuffer? = nil, timeout: TimeAmount = .seconds(15)) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

public struct HTTP2Response: Sendable {
    public var status: Int
    public var headers: HPACKHeaders
    public var body: ByteBuffer
}

public enum HTTP2TransportError: Error, Sendable, Equatable {
    /// The server did not process the request (no connection, GOAWAY before its stream, refused
    /// stream): it is safe to send it again.
    case notProcessed(String)
    /// The request may have reached the server but no answer came.
    case noResponse(String)
    case timedOut
    /// The server chose another protocol than HTTP/2 by ALPN (`http/1.1`): nothing was sent.
    case notHTTP2(String)
}

/// One HTTP/2 connection over TLS (ALPN `h2`) to a provider, its streams multiplexed. After a
/// GOAWAY or a close it takes no new streams; its pool opens another.
///
/// Built for the push hot path: requests are frames written straight onto the connection by one
/// handler (no channel per stream); callers on other threads queue requests and the event loop
/// takes the whole queue in one turn, writing every request's HEADERS and DATA and flushing once.
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

    public static func connect(to endpoint: HTTP2Endpoint, tls: TLSConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> HTTP2Connection {
        var tls = tls
        // Offering HTTP/1.1 too lets a server that only speaks it say so (``HTTP2TransportError/notHTTP2``).
        tls.applicationProtocols = ["h2", "http/1.1"]
        let context = try NIOSSLContext(configuration: tls)
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
                    // Header blocks are ours (validated where they are made); the responses' are read
                    // for `:status` and two named fields only.
                    var connection = NIOHTTP2Handler.ConnectionConfiguration()
                    connection.headerBlockValidation = .disabled
                    connection.contentLengthValidation = .disabled
                    try sync.addHandler(NIOHTTP2Handler(mode: .client, connectionConfiguration: connection, streamConfiguration: .init()))
                    let handler = StreamsHandler(authority: authority, shared: shared)
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

    /// Sends one request on a new stream and waits for the whole response.
    public func send(_ request: HTTP2Request) async throws -> HTTP2Response {
        try await send(batch: [request])[0].get()
    }

    /// Sends requests on new streams, written together and flushed once, and waits for every
    /// answer. The results are in the order of the requests.
    public func send(batch requests: [HTTP2Request]) async -> [Result<HTTP2Response, HTTP2TransportError>] {
        guard !requests.isEmpty else { return [] }
        return await withUnsafeContinuation { continuation in
            enum Action { case refuse, schedule, none }
            let action = shared.withLockedValue { shared -> Action in
                guard shared.open else { return .refuse }
                shared.activeStreams += requests.count
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

/// Reports the protocol the TLS handshake agreed on (ALPN), or why there was none.
final class ALPNObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let negotiated: EventLoopPromise<String?>
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var done = false

    init(negotiated: EventLoopPromise<String?>, timeout: TimeAmount) {
        self.negotiated = negotiated
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (observer, context) = loopBound.value
            observer.finish(.failure(HTTP2TransportError.notProcessed("no TLS handshake within \(observer.timeout)")))
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted(let chosen) = event {
            finish(.success(chosen))
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(HTTP2TransportError.notProcessed("the connection closed during the TLS handshake")))
        context.fireChannelInactive()
    }

    private func finish(_ result: Result<String?, any Error>) {
        guard !done else { return }
        done = true
        deadline?.cancel()
        negotiated.completeWith(result)
    }
}

/// Requests waiting for the event loop, and who waits for their answers.
struct PendingBatch {
    var requests: [HTTP2Request]
    var continuation: UnsafeContinuation<[Result<HTTP2Response, HTTP2TransportError>], Never>
}

/// Gathers the answers of one batch on the event loop; the last one resumes the caller.
final class BatchResults {
    private var results: [Result<HTTP2Response, HTTP2TransportError>]
    private var remaining: Int
    private let continuation: UnsafeContinuation<[Result<HTTP2Response, HTTP2TransportError>], Never>

    init(_ batch: PendingBatch) {
        results = Array(repeating: .failure(.noResponse("unanswered")), count: batch.requests.count)
        remaining = batch.requests.count
        continuation = batch.continuation
    }

    func set(_ index: Int, _ result: Result<HTTP2Response, HTTP2TransportError>) {
        results[index] = result
        remaining -= 1
        if remaining == 0 { continuation.resume(returning: results) }
    }
}

/// The client side of every stream of one connection: writes requests as frames, gathers the
/// responses, fails what cannot be answered with a classified error, and keeps the connection's
/// inbound flow-control window open.
final class StreamsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// The connection-level receive window (HTTP/2's initial 65,535 bytes, which nothing but a
    /// multiplexer would manage): a window update goes out each time half of it is consumed.
    static let connectionWindow = 65_535

    private struct Stream {
        var batch: BatchResults
        var index: Int
        var deadline: NIODeadline
        var status: Int?
        var headers = HPACKHeaders()
        var body: ByteBuffer?
    }

    private let authority: String
    private let shared: NIOLockedValueBox<HTTP2Connection.Shared>
    private var context: ChannelHandlerContext?
    private var streams: [HTTP2StreamID: Stream] = [:]
    private var nextStreamID = 1
    private var goneAway = false
    private var consumed = 0
    private var timer: RepeatedTask?

    init(authority: String, shared: NIOLockedValueBox<HTTP2Connection.Shared>) {
        self.authority = authority
        self.shared = shared
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(250), delay: .milliseconds(250)) { _ in
            loopBound.value.expire()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    /// Writes every queued request and flushes once.
    func drain() {
        let queued = shared.withLockedValue { shared in
            shared.drainScheduled = false
            defer { shared.queue = [] }
            return shared.queue
        }
        let now = NIODeadline.now()
        for pending in queued {
            let batch = BatchResults(pending)
            for (index, request) in pending.requests.enumerated() {
                guard let context, context.channel.isActive, !goneAway, nextStreamID < Int(Int32.max) - 2 else {
                    finish(batch, index, .failure(.notProcessed("the connection is closed")))
                    continue
                }
                let streamID = HTTP2StreamID(nextStreamID)
                nextStreamID += 2
                var headers = HPACKHeaders()
                headers.reserveCapacity(request.headers.count + 4)
                headers.add(name: ":method", value: request.method)
                headers.add(name: ":scheme", value: "https")
                // Never indexed: a path names one device, and would push the provider token out of
                // the HPACK table, which must then be sent whole again.
                headers.add(name: ":path", value: request.path, indexing: .nonIndexable)
                headers.add(name: ":authority", value: authority)
                headers.add(contentsOf: request.headers)
                streams[streamID] = Stream(batch: batch, index: index, deadline: now + request.timeout)
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.assumeIsolated().whenFailure { [weak self] error in
                    self?.fail(streamID, .notProcessed("the request was not written: \(error)"))
                }
                if let body = request.body {
                    context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: false)))), promise: written)
                    context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(body), endStream: true)))), promise: nil)
                } else {
                    context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: true)))), promise: written)
                }
            }
        }
        if nextStreamID >= Int(Int32.max) - 2 { markClosed() }
        context?.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let block):
            guard var stream = streams[frame.streamID] else { return }
            if stream.status == nil, let text = block.headers.first(name: ":status"), let code = Int(text), code >= 200 {
                stream.status = code
                stream.headers = block.headers
            }
            if block.endStream {
                streams[frame.streamID] = nil
                complete(stream)
            } else {
                streams[frame.streamID] = stream
            }
        case .data(let block):
            // The window update goes out in `channelReadComplete`: writing here would let the HTTP/2
            // handler deliver this stream's pending close event before the stream has completed.
            consumed += block.data.readableBytes + (block.paddingBytes ?? 0)
            guard var stream = streams[frame.streamID] else { return }
            if case .byteBuffer(var buffer) = block.data {
                if stream.body == nil { stream.body = buffer } else { stream.body!.writeBuffer(&buffer) }
            }
            if block.endStream {
                streams[frame.streamID] = nil
                complete(stream)
            } else {
                streams[frame.streamID] = stream
            }
        case .rstStream(let code):
            fail(frame.streamID, code == .refusedStream ? .notProcessed("stream refused") : .noResponse("stream reset: \(code)"))
        case .goAway(let lastStreamID, _, _):
            goneAway = true
            markClosed()
            // Streams above the last one the server took were never processed: safe to send again.
            for id in streams.keys where id > lastStreamID {
                fail(id, .notProcessed("GOAWAY before this stream"))
            }
            if streams.isEmpty { context.close(promise: nil) }
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if consumed >= Self.connectionWindow / 2 {
            context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: consumed))), promise: nil)
            consumed = 0
        }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let closed = event as? StreamClosedEvent, let stream = streams[closed.streamID] {
            // Closed without a complete response (reset, or dropped by the connection).
            fail(closed.streamID, closed.reason == .refusedStream || stream.status == nil && goneAway
                 ? .notProcessed("stream closed: \(String(describing: closed.reason))")
                 : .noResponse("stream closed: \(String(describing: closed.reason))"))
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let streamError = error as? NIOHTTP2Errors.StreamError {
            fail(streamError.streamID, .noResponse("\(streamError.baseError)"))
            return
        }
        markClosed()
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        markClosed()
        for (id, stream) in streams {
            fail(id, stream.status == nil ? .notProcessed("the connection closed before a response") : .noResponse("the connection closed mid-response"))
        }
        context.fireChannelInactive()
    }

    /// Fails the streams whose time is up and resets them.
    private func expire() {
        guard !streams.isEmpty, let context else { return }
        let now = NIODeadline.now()
        var reset = false
        for (id, stream) in streams where stream.deadline <= now {
            fail(id, .timedOut)
            context.write(wrapOutboundOut(HTTP2Frame(streamID: id, payload: .rstStream(.cancel))), promise: nil)
            reset = true
        }
        if reset { context.flush() }
    }

    private func markClosed() {
        shared.withLockedValue { $0.open = false }
    }

    private func complete(_ stream: Stream) {
        finish(stream.batch, stream.index, .success(HTTP2Response(status: stream.status ?? 0, headers: stream.headers, body: stream.body ?? ByteBuffer())))
    }

    private func fail(_ id: HTTP2StreamID, _ error: HTTP2TransportError) {
        guard let stream = streams.removeValue(forKey: id) else { return }
        finish(stream.batch, stream.index, .failure(error))
        if goneAway, streams.isEmpty { context?.close(promise: nil) }
    }

    private func finish(_ batch: BatchResults, _ index: Int, _ result: Result<HTTP2Response, HTTP2TransportError>) {
        shared.withLockedValue { $0.activeStreams -= 1 }
        batch.set(index, result)
    }
}
