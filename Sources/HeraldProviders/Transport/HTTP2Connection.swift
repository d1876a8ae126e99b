import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
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
}

/// One HTTP/2 connection over TLS (ALPN `h2`) to a provider, its streams multiplexed. After a
/// GOAWAY or a close it takes no new streams; its pool opens another.
public final class HTTP2Connection: Sendable {
    private let channel: any Channel
    private let multiplexer: NIOHTTP2Handler.StreamMultiplexer
    private let authority: String
    private let state: NIOLockedValueBox<State>

    struct State {
        var open = true
        var activeStreams = 0
        var completed = 0
    }

    public var isUsable: Bool { state.withLockedValue { $0.open } }
    public var activeStreams: Int { state.withLockedValue { $0.activeStreams } }

    private init(channel: any Channel, multiplexer: NIOHTTP2Handler.StreamMultiplexer, authority: String, state: NIOLockedValueBox<State>) {
        self.channel = channel
        self.multiplexer = multiplexer
        self.authority = authority
        self.state = state
    }

    public static func connect(to endpoint: HTTP2Endpoint, tls: TLSConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> HTTP2Connection {
        var tls = tls
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        // SNI carries names only, never IP literals.
        let serverHostname = IPAddress(endpoint.host) == nil ? endpoint.host : nil
        let state = NIOLockedValueBox(State())
        let (channel, multiplexer) = try await ClientBootstrap(group: group)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .connect(host: endpoint.host, port: endpoint.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverHostname))
                    var connectionConfiguration = NIOHTTP2Handler.ConnectionConfiguration()
                    connectionConfiguration.maximumBufferedControlFrames = 10_000
                    let multiplexer = try sync.configureHTTP2Pipeline(
                        mode: .client, connectionConfiguration: connectionConfiguration, streamConfiguration: .init()
                    ) { $0.eventLoop.makeSucceededVoidFuture() }
                    try sync.addHandler(GoAwayHandler(state: state))
                    return (channel, multiplexer)
                }
            }
        channel.closeFuture.whenComplete { _ in state.withLockedValue { $0.open = false } }
        return HTTP2Connection(
            channel: channel, multiplexer: multiplexer, authority: endpoint.port == 443 ? endpoint.host : endpoint.description, state: state
        )
    }

    func markClosed() {
        state.withLockedValue { $0.open = false }
    }

    public func close() async {
        markClosed()
        try? await channel.close()
    }

    /// Sends one request on a new stream and waits for the whole response.
    public func send(_ request: HTTP2Request) async throws -> HTTP2Response {
        guard state.withLockedValue({ state in
            guard state.open else { return false }
            state.activeStreams += 1
            return true
        }) else { throw HTTP2TransportError.notProcessed("the connection is closed") }
        defer { state.withLockedValue { $0.activeStreams -= 1; $0.completed += 1 } }

        var allHeaders: HPACKHeaders = [":method": request.method, ":scheme": "https", ":path": request.path, ":authority": authority]
        allHeaders.add(contentsOf: request.headers)
        let headers = allHeaders
        let promise = channel.eventLoop.makePromise(of: HTTP2Response.self)
        let body = request.body
        let timeout = request.timeout
        multiplexer.createStreamChannel { stream in
            stream.eventLoop.makeCompletedFuture {
                try stream.pipeline.syncOperations.addHandler(ResponseHandler(promise: promise, timeout: timeout))
            }
        }.whenComplete { result in
            switch result {
            case .success(let stream):
                stream.write(HTTP2Frame.FramePayload.headers(.init(headers: headers, endStream: body == nil)), promise: nil)
                if let body {
                    stream.write(HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(body), endStream: true)), promise: nil)
                }
                stream.flush()
            case .failure(let error):
                promise.fail(HTTP2TransportError.notProcessed("no stream: \(error)"))
            }
        }
        return try await promise.futureResult.get()
    }
}

/// Collects one stream's response and fails it with a classified error otherwise.
private final class ResponseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload

    private let promise: EventLoopPromise<HTTP2Response>
    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    private var status: Int?
    private var headers = HPACKHeaders()
    private var body: ByteBuffer?
    private var done = false

    init(promise: EventLoopPromise<HTTP2Response>, timeout: TimeAmount) {
        self.promise = promise
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            handler.fail(.timedOut)
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .headers(let frame):
            if status == nil, let text = frame.headers.first(name: ":status"), let code = Int(text) {
                if code >= 200 || code < 100 {
                    status = code
                    headers = frame.headers
                }
            }
            if frame.endStream { succeed() }
        case .data(let frame):
            if case .byteBuffer(var buffer) = frame.data {
                if body == nil { body = buffer } else { body!.writeBuffer(&buffer) }
            }
            if frame.endStream { succeed() }
        case .rstStream(let code):
            fail(code == .refusedStream ? .notProcessed("stream refused") : .noResponse("stream reset: \(code)"))
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let closed = error as? NIOHTTP2Errors.StreamClosed, closed.errorCode == .refusedStream {
            fail(.notProcessed("stream refused (GOAWAY)"))
        } else {
            fail(status == nil ? .notProcessed("\(error)") : .noResponse("\(error)"))
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(status == nil ? .notProcessed("the stream closed before a response") : .noResponse("the stream closed mid-response"))
    }

    private func succeed() {
        guard !done else { return }
        done = true
        timer?.cancel()
        promise.succeed(HTTP2Response(status: status ?? 0, headers: headers, body: body ?? ByteBuffer()))
    }

    private func fail(_ error: HTTP2TransportError) {
        guard !done else { return }
        done = true
        timer?.cancel()
        promise.fail(error)
    }
}

/// Marks the connection as draining when the server sends GOAWAY: no new streams go on it.
private final class GoAwayHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    private let state: NIOLockedValueBox<HTTP2Connection.State>

    init(state: NIOLockedValueBox<HTTP2Connection.State>) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .goAway = unwrapInboundIn(data).payload { state.withLockedValue { $0.open = false } }
        context.fireChannelRead(data)
    }
}
