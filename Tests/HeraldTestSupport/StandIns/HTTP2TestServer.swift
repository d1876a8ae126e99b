import Foundation
import HeraldCore
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
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

    public static func start(requireClientCertificate trustRoot: NIOSSLCertificate? = nil,
                             handle: @escaping @Sendable (StandInRequest) -> StandInResponse) async throws -> HTTP2TestServer {
        let certificate = try TestCertificate.make()
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate.certificate)], privateKey: .privateKey(certificate.privateKey))
        tls.applicationProtocols = ["h2"]
        if let trustRoot {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates([trustRoot])
        }
        let context = try NIOSSLContext(configuration: tls)
        let connections = NIOLockedValueBox(0)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    connections.withLockedValue { $0 += 1 }
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLServerHandler(context: context))
                    _ = try sync.configureHTTP2Pipeline(mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(StandInStreamHandler(handle: handle))
                        }
                    }
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

/// Reads one request stream whole, asks the handler, writes the answer.
private final class StandInStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    let handle: @Sendable (StandInRequest) -> StandInResponse
    var headers = HPACKHeaders()
    var body = ByteBuffer()

    init(handle: @escaping @Sendable (StandInRequest) -> StandInResponse) {
        self.handle = handle
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .headers(let frame):
            headers = frame.headers
            if frame.endStream { respond(context) }
        case .data(let frame):
            if case .byteBuffer(var buffer) = frame.data { body.writeBuffer(&buffer) }
            if frame.endStream { respond(context) }
        default:
            break
        }
    }

    private func respond(_ context: ChannelHandlerContext) {
        let ssl = try? context.channel.parent?.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
        let request = StandInRequest(
            method: headers.first(name: ":method") ?? "", path: headers.first(name: ":path") ?? "",
            headers: Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
            body: Data(body.readableBytesView), clientCertificateSubject: ssl?.peerCertificate.map { "\($0)" }
        )
        let response = handle(request)
        if let delay = response.delay {
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: delay) {
                let (handler, context) = loopBound.value
                handler.write(response, context)
            }
        } else {
            write(response, context)
        }
    }

    private func write(_ response: StandInResponse, _ context: ChannelHandlerContext) {
        var out: HPACKHeaders = [":status": String(response.status)]
        for (name, value) in response.headers { out.add(name: name, value: value) }
        if let body = response.body {
            out.add(name: "content-type", value: "application/json; charset=UTF-8")
            context.write(wrapOutboundOut(.headers(.init(headers: out))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(ByteBuffer(string: body)), endStream: true))), promise: nil)
        } else {
            context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: out, endStream: true))), promise: nil)
        }
        if response.goAway, let parent = context.channel.parent,
           let streamID = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID) {
            parent.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: streamID, errorCode: .noError, opaqueData: nil)), promise: nil)
            parent.eventLoop.scheduleTask(in: .milliseconds(50)) { parent.close(promise: nil) }
        }
    }
}

enum JWTParts {
    /// header, claims, signature and the signed input of a compact JWS.
    static func split(_ token: Substring) -> (header: [String: Any], claims: [String: Any], signature: Data, signedInput: Data)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let h = Base64URL.decode(parts[0]), let c = Base64URL.decode(parts[1]), let s = Base64URL.decode(parts[2]),
              let header = try? JSONSerialization.jsonObject(with: h) as? [String: Any],
              let claims = try? JSONSerialization.jsonObject(with: c) as? [String: Any] else { return nil }
        return (header, claims, s, Data((parts[0] + "." + parts[1]).utf8))
    }
}
