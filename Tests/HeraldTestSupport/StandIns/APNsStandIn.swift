import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A local APNs: HTTP/2 over TLS on 127.0.0.1 that checks what Apple checks (the ES256 provider
/// token, path, topic, push type, priority, ids, payload) and answers Apple's statuses and error
/// bodies. Faults are scripted per device token or per connection.
public final class APNsStandIn: Sendable {
    public struct Received: Sendable {
        public let path: String
        public let headers: [String: String]
        public let body: Data
        public let clientCertificateSubject: String?
    }

    public struct Scripted: Sendable {
        public var status: Int
        public var reason: String
        public var timestampMs: Int64?

        public init(status: Int, reason: String, timestampMs: Int64? = nil) {
            self.status = status
            self.reason = reason
            self.timestampMs = timestampMs
        }
    }

    struct State {
        var keys: [String: P256.Signing.PublicKey] = [:]
        var teamId = "DEF123GHIJ"
        var bundleId = "com.acme.app"
        var scripted: [String: Scripted] = [:]
        var received: [Received] = []
        var rejectTokensIssuedBefore: Date?
        var goAwayAfterStreams: Int?
        var streamsOnConnection: [ObjectIdentifier: Int] = [:]
        var connections = 0
        var requireClientCertificate = false
    }

    public let port: Int
    public let certificate: TestCertificate
    private let channel: any Channel
    let state: NIOLockedValueBox<State>

    public var endpointURL: String { "https://127.0.0.1:\(port)" }

    public static func start(bundleId: String = "com.acme.app", teamId: String = "DEF123GHIJ", requireClientCertificate: Bool = false,
                             clientTrustRoot: NIOSSLCertificate? = nil) async throws -> APNsStandIn {
        let certificate = try TestCertificate.make()
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate.certificate)], privateKey: .privateKey(certificate.privateKey))
        tls.applicationProtocols = ["h2"]
        if requireClientCertificate {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(clientTrustRoot.map { [$0] } ?? [])
        }
        let context = try NIOSSLContext(configuration: tls)
        let state = NIOLockedValueBox(State())
        state.withLockedValue {
            $0.bundleId = bundleId
            $0.teamId = teamId
            $0.requireClientCertificate = requireClientCertificate
        }
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    state.withLockedValue { $0.connections += 1 }
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLServerHandler(context: context))
                    _ = try sync.configureHTTP2Pipeline(mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(APNsStreamHandler(state: state))
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return APNsStandIn(port: channel.localAddress!.port!, certificate: certificate, channel: channel, state: state)
    }

    private init(port: Int, certificate: TestCertificate, channel: any Channel, state: NIOLockedValueBox<State>) {
        self.port = port
        self.certificate = certificate
        self.channel = channel
        self.state = state
    }

    public func shutdown() async { try? await channel.close() }

    /// Accept provider tokens signed by this key.
    public func trust(keyId: String, publicKey: P256.Signing.PublicKey) {
        state.withLockedValue { $0.keys[keyId] = publicKey }
    }

    public func script(deviceToken: String, _ answer: Scripted) {
        state.withLockedValue { $0.scripted[deviceToken] = answer }
    }

    /// Answer `ExpiredProviderToken` for tokens issued before this date (as if APNs's clock were ahead).
    public func rejectTokens(issuedBefore date: Date?) {
        state.withLockedValue { $0.rejectTokensIssuedBefore = date }
    }

    /// Send GOAWAY (and close) once, on the first connection that has carried this many streams.
    public func goAway(afterStreams count: Int?) {
        state.withLockedValue { $0.goAwayAfterStreams = count }
    }

    public var received: [Received] { state.withLockedValue { $0.received } }
    public var connections: Int { state.withLockedValue { $0.connections } }
}

/// One request stream: read it whole, check it, answer.
private final class APNsStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    let state: NIOLockedValueBox<APNsStandIn.State>
    var headers = HPACKHeaders()
    var body = ByteBuffer()

    init(state: NIOLockedValueBox<APNsStandIn.State>) {
        self.state = state
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
        let sslHandler = try? context.channel.parent?.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
        let subject = sslHandler?.peerCertificate.map { "\($0)" }
        let received = APNsStandIn.Received(
            path: headers.first(name: ":path") ?? "",
            headers: Dictionary(headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
            body: Data(body.readableBytesView), clientCertificateSubject: subject
        )
        let (verdict, goAway): (APNsStandIn.Scripted?, Bool) = state.withLockedValue { state in
            state.received.append(received)
            var goAway = false
            if let parent = context.channel.parent, let limit = state.goAwayAfterStreams {
                let id = ObjectIdentifier(parent)
                state.streamsOnConnection[id, default: 0] += 1
                goAway = state.streamsOnConnection[id] == limit
                if goAway { state.goAwayAfterStreams = nil }    // one connection, once
            }
            return (Self.check(received, state: state, certificatePresented: subject != nil), goAway)
        }
        var responseHeaders: HPACKHeaders = [":status": String(verdict?.status ?? 200), "apns-id": received.headers["apns-id"] ?? UUID().uuidString.lowercased()]
        if let verdict {
            responseHeaders.add(name: "content-type", value: "application/json")
            var json = #"{"reason":"\#(verdict.reason)""#
            if let timestamp = verdict.timestampMs { json += #","timestamp":\#(timestamp)"# }
            json += "}"
            context.write(wrapOutboundOut(.headers(.init(headers: responseHeaders))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(ByteBuffer(string: json)), endStream: true))), promise: nil)
        } else {
            context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: responseHeaders, endStream: true))), promise: nil)
        }
        if goAway, let parent = context.channel.parent, let streamID = try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID) {
            parent.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: streamID, errorCode: .noError, opaqueData: nil)), promise: nil)
            parent.eventLoop.scheduleTask(in: .milliseconds(50)) { parent.close(promise: nil) }
        }
    }

    /// Apple's checks, in Apple's order of precedence as far as it is known.
    static func check(_ request: APNsStandIn.Received, state: APNsStandIn.State, certificatePresented: Bool) -> APNsStandIn.Scripted? {
        let h = request.headers
        guard h[":method"] == "POST" else { return .init(status: 405, reason: "MethodNotAllowed") }
        guard request.path.hasPrefix("/3/device/") else { return .init(status: 404, reason: "BadPath") }
        let token = String(request.path.dropFirst("/3/device/".count))
        guard !token.isEmpty else { return .init(status: 400, reason: "MissingDeviceToken") }
        guard token.count % 2 == 0, token.allSatisfy(\.isHexDigit) else { return .init(status: 400, reason: "BadDeviceToken") }
        if state.requireClientCertificate {
            guard certificatePresented else { return .init(status: 403, reason: "BadCertificate") }
        } else {
            guard let authorization = h["authorization"] else { return .init(status: 403, reason: "MissingProviderToken") }
            if let problem = checkProviderToken(authorization, state: state) { return problem }
        }
        guard let topic = h["apns-topic"] else { return .init(status: 400, reason: "MissingTopic") }
        let pushType = h["apns-push-type"] ?? "alert"
        let suffixes = ["alert": "", "background": "", "voip": ".voip", "liveactivity": ".push-type.liveactivity", "location": ".location-query",
                        "complication": ".complication", "fileprovider": ".pushkit.fileprovider", "widgets": ".push-type.widgets"]
        guard let suffix = suffixes[pushType] else { return .init(status: 400, reason: "InvalidPushType") }
        guard topic == state.bundleId + suffix else { return .init(status: 400, reason: topic.hasPrefix(state.bundleId) ? "InvalidPushType" : "TopicDisallowed") }
        if let priority = h["apns-priority"] {
            guard ["1", "5", "10"].contains(priority) else { return .init(status: 400, reason: "BadPriority") }
            if pushType == "background" && priority == "10" { return .init(status: 400, reason: "BadPriority") }
        }
        if let id = h["apns-id"], UUID(uuidString: id) == nil { return .init(status: 400, reason: "BadMessageId") }
        if let expiration = h["apns-expiration"], Int(expiration) == nil { return .init(status: 400, reason: "BadExpirationDate") }
        if let collapse = h["apns-collapse-id"], collapse.utf8.count > 64 { return .init(status: 400, reason: "BadCollapseId") }
        guard !request.body.isEmpty else { return .init(status: 400, reason: "PayloadEmpty") }
        guard request.body.count <= (pushType == "voip" ? 5120 : 4096) else { return .init(status: 413, reason: "PayloadTooLarge") }
        return state.scripted[token]
    }

    static func checkProviderToken(_ authorization: String, state: APNsStandIn.State) -> APNsStandIn.Scripted? {
        let invalid = APNsStandIn.Scripted(status: 403, reason: "InvalidProviderToken")
        guard authorization.hasPrefix("bearer ") else { return invalid }
        let parts = authorization.dropFirst("bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = decode(parts[0]), let claimsData = decode(parts[1]), let signature = decode(parts[2]),
              let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
              let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any]
        else { return invalid }
        guard header["alg"] as? String == "ES256", let kid = header["kid"] as? String, let key = state.keys[kid] else { return invalid }
        guard claims["iss"] as? String == state.teamId, let iat = claims["iat"] as? Int else { return invalid }
        // A JWS ES256 signature is r‖s, 64 bytes; a DER signature is a client bug Apple rejects.
        guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
              key.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8)) else { return invalid }
        let issued = Date(timeIntervalSince1970: TimeInterval(iat))
        if Date().timeIntervalSince(issued) > 3600 { return .init(status: 403, reason: "ExpiredProviderToken") }
        if let cutoff = state.rejectTokensIssuedBefore, issued < cutoff { return .init(status: 403, reason: "ExpiredProviderToken") }
        return nil
    }

    static func decode(_ part: Substring) -> Data? {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
