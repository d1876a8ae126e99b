import Foundation
import HeraldCore
import HeraldModels
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// One request as a stand-in sees it.
public struct StandInRequest: Sendable {
    public let method: String
    public let path: String
    public let headers: [String: String]
    public let body: Data
    /// The subject of the client certificate, when one was presented.
    public let clientCertificateSubject: String?
}

public struct StandInResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: String?
    /// Send GOAWAY on this connection after answering, then close it.
    public var goAway: Bool
    /// With `goAway`: name the highest stream received rather than this one, and close only once
    /// every stream received has its answer (a graceful shutdown, RFC 9113 §6.8). Otherwise the
    /// streams after this one are left unprocessed, for the client to send again elsewhere.
    public var gracefully = false
    /// Answer only after this long (a slow server).
    public var delay: TimeAmount?

    public init(status: Int, headers: [String: String] = [:], json body: String? = nil, goAway: Bool = false, delay: TimeAmount? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.goAway = goAway
        self.delay = delay
    }
}

/// An HTTP/2-over-TLS server on 127.0.0.1 with a self-signed certificate, answering each
/// request with `handle`. The base of the APNs and FCM stand-ins.
public final class HTTP2TestServer: Sendable {
    public let port: Int
    public let certificate: TestCertificate
    private let channel: any Channel
    private let connectionCount: NIOLockedValueBox<Int>

    public var url: String { "https://127.0.0.1:\(port)" }
    public var connections: Int { connectionCount.withLockedValue { $0 } }

    /// - Parameters:
    ///   - maxConcurrentStreams: what the server's SETTINGS allow (APNs allows 1,000).
    ///   - lean: serve with ``LeanHTTP2ServerHandler`` (load benchmarks) instead of swift-nio-http2's
    ///     full protocol stack (tests).
    ///   - http1Only: offer and speak HTTP/1.1 only (a server a client must fall back for).
    ///   - initialWindowSize: what each stream's SETTINGS window lets the client send before the
    ///     server gives it more (HTTP/2's default 65,535); the server gives back what each DATA
    ///     frame took, as it reads it.
    public static func start(
        requireClientCertificate trustRoot: NIOSSLCertificate? = nil,
        maxConcurrentStreams: Int = 1000,
        initialWindowSize: Int? = nil,
        lean: Bool = false,
        http1Only: Bool = false,
        handle: @escaping @Sendable (StandInRequest) -> StandInResponse
    ) async throws -> HTTP2TestServer {
        let certificate = try TestCertificate.make()
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate.certificate)],
            privateKey: .privateKey(certificate.privateKey)
        )
        tls.applicationProtocols = http1Only ? ["http/1.1"] : ["h2"]
        if let trustRoot {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates([trustRoot])
        }
        let context = try NIOSSLContext(configuration: tls)
        let connections = NIOLockedValueBox(0)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    connections.withLockedValue { $0 += 1 }
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLServerHandler(context: context))
                    if http1Only {
                        try sync.configureHTTPServerPipeline()
                        try sync.addHandler(HTTP1StandInHandler(handle: handle))
                        return
                    }
                    if lean {
                        try sync.addHandler(LeanHTTP2ServerHandler(maxConcurrentStreams: maxConcurrentStreams, handle: handle))
                        return
                    }
                    var configuration = NIOHTTP2Handler.ConnectionConfiguration()
                    configuration.initialSettings = [
                        HTTP2Setting(parameter: .maxConcurrentStreams, value: maxConcurrentStreams),
                        HTTP2Setting(parameter: .maxHeaderListSize, value: HPACKDecoder.defaultMaxHeaderListSize),
                    ]
                    if let initialWindowSize {
                        configuration.initialSettings.append(HTTP2Setting(parameter: .initialWindowSize, value: initialWindowSize))
                    }
                    try sync.addHandler(NIOHTTP2Handler(mode: .server, connectionConfiguration: configuration, streamConfiguration: .init()))
                    try sync.addHandler(StandInConnectionHandler(returnsStreamWindow: initialWindowSize != nil, handle: handle))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return HTTP2TestServer(port: channel.localAddress!.port!, certificate: certificate, channel: channel, connections: connections)
    }

    private init(port: Int, certificate: TestCertificate, channel: any Channel, connections: NIOLockedValueBox<Int>) {
        self.port = port
        self.certificate = certificate
        self.channel = channel
        self.connectionCount = connections
    }

    public func shutdown() async { try? await channel.close() }
}

/// Every stream of one connection, as frames: gathers each request whole, asks the handler,
/// writes the answer, and flushes once per read burst (a stand-in fast enough to share the
/// machine with a load benchmark).
private final class StandInConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    let handle: @Sendable (StandInRequest) -> StandInResponse
    private var requests: [HTTP2StreamID: (headers: HPACKHeaders, body: ByteBuffer)] = [:]
    private var consumed = 0
    private var needsFlush = false
    private var clientCertificateSubject: String??
    /// Set once this side sent GOAWAY: later streams are not processed.
    private var lastStreamID: HTTP2StreamID?
    /// The highest stream opened by the client; a GOAWAY names it, so that every stream already
    /// received is answered (a graceful shutdown, RFC 9113 §6.8) and none is retried elsewhere.
    private var highestStreamID: HTTP2StreamID = .rootStream
    /// Answers scheduled for later (a slow server); the connection closes after the last one.
    private var delayedAnswers = 0
    /// Gives each stream back the window its DATA took (with a small initial window; no
    /// multiplexer does it here).
    private let returnsStreamWindow: Bool

    init(returnsStreamWindow: Bool = false, handle: @escaping @Sendable (StandInRequest) -> StandInResponse) {
        self.returnsStreamWindow = returnsStreamWindow
        self.handle = handle
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let block):
            if frame.streamID > highestStreamID { highestStreamID = frame.streamID }
            requests[frame.streamID] = (block.headers, ByteBuffer())
            if block.endStream { respond(frame.streamID, context) }
        case .data(let block):
            consumed += block.data.readableBytes + (block.paddingBytes ?? 0)
            if consumed >= 32_768 {
                context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: consumed))), promise: nil)
                needsFlush = true
                consumed = 0
            }
            if returnsStreamWindow, !block.endStream, block.data.readableBytes > 0 {
                let taken = block.data.readableBytes + (block.paddingBytes ?? 0)
                context.write(wrapOutboundOut(HTTP2Frame(streamID: frame.streamID, payload: .windowUpdate(windowSizeIncrement: taken))), promise: nil)
                needsFlush = true
            }
            if case .byteBuffer(var buffer) = block.data { requests[frame.streamID]?.body.writeBuffer(&buffer) }
            if block.endStream { respond(frame.streamID, context) }
        case .rstStream:
            requests[frame.streamID] = nil
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    private func respond(_ streamID: HTTP2StreamID, _ context: ChannelHandlerContext) {
        guard let (headers, body) = requests.removeValue(forKey: streamID) else { return }
        if let lastStreamID, streamID > lastStreamID { return }
        if clientCertificateSubject == nil {
            let ssl = try? context.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            clientCertificateSubject = .some(ssl?.peerCertificate.map { "\($0)" })
        }
        let request = StandInRequest(
            method: headers.first(name: ":method") ?? "",
            path: headers.first(name: ":path") ?? "",
            headers: Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
            body: Data(body.readableBytesView),
            clientCertificateSubject: clientCertificateSubject ?? nil
        )
        let response = handle(request)
        if let delay = response.delay {
            delayedAnswers += 1
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: delay) {
                let (handler, context) = loopBound.value
                handler.delayedAnswers -= 1
                handler.write(response, streamID, context)
                context.flush()
                handler.closeIfDone(context)
            }
        } else {
            write(response, streamID, context)
            needsFlush = true
        }
    }

    private func write(_ response: StandInResponse, _ streamID: HTTP2StreamID, _ context: ChannelHandlerContext) {
        var out: HPACKHeaders = [":status": String(response.status)]
        for (name, value) in response.headers { out.add(name: name, value: value) }
        if let body = response.body {
            out.add(name: "content-type", value: "application/json; charset=UTF-8")
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: out)))), promise: nil)
            context.write(
                wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(ByteBuffer(string: body)), endStream: true)))),
                promise: nil
            )
        } else {
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: out, endStream: true)))), promise: nil)
        }
        if response.goAway, lastStreamID == nil {
            let last = response.gracefully ? highestStreamID : streamID
            lastStreamID = last
            context.writeAndFlush(
                wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: last, errorCode: .noError, opaqueData: nil))),
                promise: nil
            )
            if response.gracefully {
                closeIfDone(context)
            } else {
                let channel = context.channel
                context.eventLoop.scheduleTask(in: .milliseconds(50)) { channel.close(promise: nil) }
            }
        }
    }

    /// After GOAWAY, closes the connection once every stream it covers has its answer.
    private func closeIfDone(_ context: ChannelHandlerContext) {
        guard lastStreamID != nil, delayedAnswers == 0, requests.isEmpty else { return }
        let channel = context.channel
        context.eventLoop.scheduleTask(in: .milliseconds(50)) { channel.close(promise: nil) }
    }
}

/// An HTTP/1.1 connection answered by the same `handle` (keep-alive, one request at a time).
private final class HTTP1StandInHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let handle: @Sendable (StandInRequest) -> StandInResponse
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(handle: @escaping @Sendable (StandInRequest) -> StandInResponse) {
        self.handle = handle
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            let request = StandInRequest(
                method: head.method.rawValue,
                path: head.uri,
                headers: Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { $1 }),
                body: Data(body.readableBytesView),
                clientCertificateSubject: nil
            )
            let response = handle(request)
            var headers = HTTPHeaders(response.headers.map { ($0.key, $0.value) })
            let bytes = ByteBuffer(string: response.body ?? "")
            headers.add(name: "content-length", value: String(bytes.readableBytes))
            if response.body != nil { headers.add(name: "content-type", value: "application/json; charset=UTF-8") }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: response.status), headers: headers))),
                promise: nil
            )
            context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}

enum JWTParts {
    /// header, claims, signature and the signed input of a compact JWS.
    static func split(_ token: Substring) -> (header: JSONValue, claims: JSONValue, signature: Data, signedInput: Data)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let h = Base64URL.decode(parts[0]), let c = Base64URL.decode(parts[1]), let s = Base64URL.decode(parts[2]),
            case let header = JSONValue.parsing(h), header.object != nil,
            case let claims = JSONValue.parsing(c), claims.object != nil
        else { return nil }
        return (header, claims, s, Data((parts[0] + "." + parts[1]).utf8))
    }
}
