import Crypto
import Foundation
import HeraldCore
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
        var streams = 0
        var requireClientCertificate = false
        var recordRequests = true
        /// Answer every request this late (a slow APNs).
        var delay: TimeAmount?
        /// Told of every request (benchmarks count and time them).
        var observer: (@Sendable (Received) -> Void)?
        /// Provider tokens whose signature was verified, with their issue date (APNs validates a
        /// token once, not per push).
        var verifiedTokens: [String: Date] = [:]
        /// Refusals, GOAWAYs and latency injected into the answers (the fault suite).
        var faults: FaultPlan?
    }

    private let server: HTTP2TestServer
    let state: NIOLockedValueBox<State>

    public var port: Int { server.port }
    public var certificate: TestCertificate { server.certificate }
    public var endpointURL: String { server.url }
    public var connections: Int { server.connections }

    /// - Parameters:
    ///   - recordRequests: keep every request for inspection (off for load benchmarks).
    ///   - lean: serve HTTP/2 with the lean frame handler (load benchmarks); the same checks and answers.
    public static func start(
        bundleId: String = "com.acme.app",
        teamId: String = "DEF123GHIJ",
        requireClientCertificate: Bool = false,
        clientTrustRoot: NIOSSLCertificate? = nil,
        recordRequests: Bool = true,
        lean: Bool = false
    ) async throws -> APNsStandIn {
        let state = NIOLockedValueBox(State())
        state.withLockedValue {
            $0.bundleId = bundleId
            $0.teamId = teamId
            $0.requireClientCertificate = requireClientCertificate
            $0.recordRequests = recordRequests
        }
        let server = try await HTTP2TestServer.start(requireClientCertificate: requireClientCertificate ? clientTrustRoot : nil, lean: lean) {
            request in
            state.withLockedValue { state in Self.answer(request, state: &state) }
        }
        return APNsStandIn(server: server, state: state)
    }

    private init(server: HTTP2TestServer, state: NIOLockedValueBox<State>) {
        self.server = server
        self.state = state
    }

    public func shutdown() async { await server.shutdown() }

    /// Accept provider tokens signed by this key.
    public func trust(keyId: String, publicKey: P256.Signing.PublicKey) {
        state.withLockedValue {
            $0.keys[keyId] = publicKey
            $0.verifiedTokens = [:]
        }
    }

    public func script(deviceToken: String, _ answer: Scripted) {
        state.withLockedValue { $0.scripted[deviceToken] = answer }
    }

    /// Answer `ExpiredProviderToken` for tokens issued before this date (as if APNs's clock were ahead).
    public func rejectTokens(issuedBefore date: Date?) {
        state.withLockedValue { $0.rejectTokensIssuedBefore = date }
    }

    /// Send GOAWAY (and close) once, after this many more streams.
    /// Calls `observer` for every request, before answering it.
    public func observe(_ observer: @escaping @Sendable (Received) -> Void) {
        state.withLockedValue { $0.observer = observer }
    }

    /// Answers every request after `delay` (nil: at once).
    public func slowDown(_ delay: TimeAmount?) {
        state.withLockedValue { $0.delay = delay }
    }

    public func goAway(afterStreams count: Int?) {
        state.withLockedValue {
            $0.goAwayAfterStreams = count
            $0.streams = 0
        }
    }

    public var received: [Received] { state.withLockedValue { $0.received } }

    /// Injects these faults from now on (nil: none). APNs's own bodies: 503 `ServiceUnavailable`,
    /// 429 `TooManyRequests`, each with `retry-after`.
    public func inject(_ faults: FaultPlan?) {
        state.withLockedValue { $0.faults = faults }
    }

    static func answer(_ request: StandInRequest, state: inout State) -> StandInResponse {
        let received = Received(
            path: request.path,
            headers: request.headers,
            body: request.body,
            clientCertificateSubject: request.clientCertificateSubject
        )
        if state.recordRequests { state.received.append(received) }
        state.observer?(received)
        var goAway = false
        if let limit = state.goAwayAfterStreams {
            state.streams += 1
            if state.streams == limit {
                goAway = true
                state.goAwayAfterStreams = nil
            }
        }
        let apnsId = request.headers["apns-id"] ?? Identifier.uuid()
        let deviceToken = String(request.path.dropFirst("/3/device/".count))
        let fault = state.faults?.decide(key: deviceToken)
        if let fault, let status = fault.refusal {
            var refused = StandInResponse(
                status: status,
                headers: ["apns-id": apnsId, "retry-after": String(fault.retryAfterSeconds)],
                json: status == 503 ? #"{"reason":"ServiceUnavailable"}"# : #"{"reason":"TooManyRequests"}"#,
                goAway: fault.goAway,
                delay: fault.delay
            )
            refused.gracefully = true
            return refused
        }
        guard let verdict = check(received, state: &state, certificatePresented: request.clientCertificateSubject != nil) else {
            state.faults?.accepted(key: deviceToken)
            var answer = StandInResponse(
                status: 200,
                headers: ["apns-id": apnsId],
                goAway: goAway || fault?.goAway == true,
                delay: fault?.delay ?? state.delay
            )
            answer.gracefully = fault?.goAway == true
            return answer
        }
        var json = #"{"reason":"\#(verdict.reason)""#
        if let timestamp = verdict.timestampMs { json += #","timestamp":\#(timestamp)"# }
        return StandInResponse(status: verdict.status, headers: ["apns-id": apnsId], json: json + "}", goAway: goAway)
    }

    static let topicSuffixes = [
        "alert": "", "background": "", "voip": ".voip", "liveactivity": ".push-type.liveactivity", "location": ".location-query",
        "complication": ".complication", "fileprovider": ".pushkit.fileprovider", "widgets": ".push-type.widgets",
    ]

    /// Apple's checks, in Apple's order of precedence as far as it is known.
    static func check(_ request: Received, state: inout State, certificatePresented: Bool) -> Scripted? {
        let h = request.headers
        guard h[":method"] == "POST" else { return .init(status: 405, reason: "MethodNotAllowed") }
        guard request.path.hasPrefix("/3/device/") else { return .init(status: 404, reason: "BadPath") }
        let token = String(request.path.dropFirst("/3/device/".count))
        guard !token.isEmpty else { return .init(status: 400, reason: "MissingDeviceToken") }
        guard token.utf8.count % 2 == 0, token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }) else {
            return .init(status: 400, reason: "BadDeviceToken")
        }
        if state.requireClientCertificate {
            guard certificatePresented else { return .init(status: 403, reason: "BadCertificate") }
        } else {
            guard let authorization = h["authorization"] else { return .init(status: 403, reason: "MissingProviderToken") }
            if let problem = checkProviderToken(authorization, state: &state) { return problem }
        }
        guard let topic = h["apns-topic"] else { return .init(status: 400, reason: "MissingTopic") }
        let pushType = h["apns-push-type"] ?? "alert"
        guard let suffix = topicSuffixes[pushType] else { return .init(status: 400, reason: "InvalidPushType") }
        guard topic == state.bundleId + suffix else {
            return .init(status: 400, reason: topic.hasPrefix(state.bundleId) ? "InvalidPushType" : "TopicDisallowed")
        }
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

    static func checkProviderToken(_ authorization: String, state: inout State) -> Scripted? {
        let invalid = Scripted(status: 403, reason: "InvalidProviderToken")
        let issued: Date
        if let known = state.verifiedTokens[authorization] {
            issued = known
        } else {
            guard authorization.hasPrefix("bearer ") else { return invalid }
            guard let (header, claims, signature, signedInput) = JWTParts.split(authorization.dropFirst("bearer ".count)) else { return invalid }
            guard header["alg"].string == "ES256", let kid = header["kid"].string, let key = state.keys[kid] else { return invalid }
            guard claims["iss"].string == state.teamId, let iat = claims["iat"].int else { return invalid }
            // A JWS ES256 signature is r‖s, 64 bytes; a DER signature is a client bug Apple rejects.
            guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
                key.isValidSignature(ecdsa, for: signedInput)
            else { return invalid }
            issued = Date(timeIntervalSince1970: TimeInterval(iat))
            state.verifiedTokens[authorization] = issued
        }
        if Date().timeIntervalSince(issued) > 3600 { return .init(status: 403, reason: "ExpiredProviderToken") }
        if let cutoff = state.rejectTokensIssuedBefore, issued < cutoff { return .init(status: 403, reason: "ExpiredProviderToken") }
        return nil
    }

}
