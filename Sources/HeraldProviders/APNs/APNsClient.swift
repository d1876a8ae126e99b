import Foundation
import HeraldCore
import NIOCore
import NIOFoundationCompat
import NIOHPACK
import NIOSSL

/// One notification for one device.
public struct APNsNotification: Sendable {
    public var deviceToken: String
    public var pushType: APNsPushType
    /// The JSON payload (a dictionary with `aps`), already encoded.
    public var payload: ByteBuffer
    public var priority: Int?
    /// nil: APNs's default; `.distantPast`: deliver now or never (`apns-expiration: 0`).
    public var expiration: Date?
    public var collapseId: String?
    public var apnsId: UUID?

    public init(deviceToken: String, pushType: APNsPushType = .alert, payload: ByteBuffer, priority: Int? = nil,
                expiration: Date? = nil, collapseId: String? = nil, apnsId: UUID? = nil) {
        self.deviceToken = deviceToken
        self.pushType = pushType
        self.payload = payload
        self.priority = priority
        self.expiration = expiration
        self.collapseId = collapseId
        self.apnsId = apnsId
    }
}

/// Where APNs is: Apple's hosts, or the operator's overrides (`HERALD_APNS_SANDBOX_URL`,
/// `HERALD_APNS_PRODUCTION_URL`) for local stand-ins.
public struct APNsEndpoints: Sendable {
    public var sandbox = HTTP2Endpoint(host: "api.sandbox.push.apple.com")
    public var production = HTTP2Endpoint(host: "api.push.apple.com")

    public init() {}

    public init(environment: [String: String]) throws {
        if let url = environment["HERALD_APNS_SANDBOX_URL"] {
            guard let endpoint = HTTP2Endpoint(url: url) else { throw HeraldError(.invalidField, "HERALD_APNS_SANDBOX_URL must be https://host[:port]") }
            sandbox = endpoint
        }
        if let url = environment["HERALD_APNS_PRODUCTION_URL"] {
            guard let endpoint = HTTP2Endpoint(url: url) else { throw HeraldError(.invalidField, "HERALD_APNS_PRODUCTION_URL must be https://host[:port]") }
            production = endpoint
        }
    }
}

/// An APNs client for one credential in one environment: token auth (ES256 JWT, signed once and
/// reused) or certificate auth (mutual TLS with the .p12's certificate and key).
public final class APNsClient: Sendable {
    public enum Authentication: Sendable {
        case token(APNsTokenSigner)
        case certificate
    }

    public let bundleId: String
    public let production: Bool
    private let authentication: Authentication
    private let pool: HTTP2ConnectionPool
    private let clock: ContinuousClock

    /// - Parameters:
    ///   - tls: the base TLS configuration (trust roots); certificate auth adds its identity here.
    public init(bundleId: String, production: Bool, authentication: Authentication, tls: TLSConfiguration,
                endpoints: APNsEndpoints = APNsEndpoints(), maxConnections: Int = 4) {
        self.bundleId = bundleId
        self.production = production
        self.authentication = authentication
        self.pool = HTTP2ConnectionPool(endpoint: production ? endpoints.production : endpoints.sandbox, tls: tls, maxConnections: maxConnections)
        self.clock = ContinuousClock()
    }

    /// A client for a stored credential.
    public static func make(config: ProviderConfig, secret: ProviderSecret, baseTLS: TLSConfiguration,
                            endpoints: APNsEndpoints, clock: any WallClock = SystemWallClock()) throws -> APNsClient {
        guard config.kind == .apns, let bundleId = config.bundleId else { throw HeraldError(.internal, "not an apns credential") }
        var tls = baseTLS
        let authentication: Authentication
        switch config.auth {
        case .certificate:
            guard let p12 = secret.p12Base64.flatMap({ Data(base64Encoded: $0.filter { !$0.isWhitespace }) }) else {
                throw HeraldError(.internal, "the certificate is missing")
            }
            let bundle = try NIOSSLPKCS12Bundle(buffer: Array(p12), passphrase: Array((secret.p12Password ?? "").utf8))
            tls.certificateChain = bundle.certificateChain.map { .certificate($0) }
            tls.privateKey = .privateKey(bundle.privateKey)
            authentication = .certificate
        case .token, nil:
            guard let pem = secret.privateKeyPEM, let keyId = config.keyId, let teamId = config.teamId else {
                throw HeraldError(.internal, "the signing key is missing")
            }
            authentication = .token(try APNsTokenSigner(privateKeyPEM: pem, keyId: keyId, teamId: teamId, clock: clock))
        }
        return APNsClient(bundleId: bundleId, production: config.production ?? false, authentication: authentication, tls: tls, endpoints: endpoints)
    }

    public var connectionsOpened: Int { pool.connectionsOpened }

    public func shutdown() async { await pool.shutdown() }

    /// Sends one notification and maps APNs's answer to an outcome. Never throws: local checks,
    /// transport failures and provider errors are all verdicts.
    public func send(_ notification: APNsNotification) async -> PushResult {
        let start = clock.now
        if let problem = Self.check(notification) {
            return PushResult(outcome: .failed, reason: problem, latency: .zero)
        }
        var request = HTTP2Request(path: "/3/device/\(notification.deviceToken)", headers: headers(for: notification), body: notification.payload)
        var renewed = false
        while true {
            var token: APNsTokenSigner.Token?
            if case .token(let signer) = authentication {
                do {
                    token = try await signer.token()
                } catch {
                    return PushResult(outcome: .credentialBroken, reason: "the signing key does not sign: \(error)", latency: clock.now - start)
                }
                request.headers.replaceOrAdd(name: "authorization", value: "bearer \(token!.value)")
            }
            let response: HTTP2Response
            do {
                response = try await pool.send(request)
            } catch {
                return PushResult(outcome: .retryLater(after: nil), reason: "transport: \(error)", latency: clock.now - start)
            }
            let apnsId = response.headers.first(name: "apns-id")
            if response.status == 200 {
                return PushResult(outcome: .delivered, providerStatus: 200, providerMessageId: apnsId, latency: clock.now - start)
            }
            let body = try? JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body))
            let reason = APNsReason(body?.reason ?? "HTTP \(response.status)")
            if reason == .expiredProviderToken, !renewed, case .token(let signer) = authentication, let token,
               (try? await signer.renew(after: token)) == true {
                renewed = true
                continue
            }
            let since = body?.timestamp.map { Date(timeIntervalSince1970: $0 / 1000) }
            return PushResult(
                outcome: reason.outcome(status: response.status, timestamp: since, production: production),
                providerStatus: response.status, reason: reason.name, providerMessageId: apnsId, latency: clock.now - start
            )
        }
    }

    struct ErrorBody: Decodable {
        var reason: String
        var timestamp: Double?
    }

    private func headers(for notification: APNsNotification) -> HPACKHeaders {
        var headers: HPACKHeaders = [
            "apns-topic": notification.pushType.topic(bundleId: bundleId),
            "apns-push-type": notification.pushType.rawValue,
            "apns-priority": String(notification.priority ?? notification.pushType.defaultPriority),
            "content-type": "application/json",
        ]
        if let expiration = notification.expiration {
            headers.add(name: "apns-expiration", value: expiration == .distantPast ? "0" : String(Int(expiration.timeIntervalSince1970)))
        }
        if let collapseId = notification.collapseId { headers.add(name: "apns-collapse-id", value: collapseId) }
        if let apnsId = notification.apnsId { headers.add(name: "apns-id", value: apnsId.uuidString.lowercased()) }
        return headers
    }

    /// Local checks that save a request Apple would refuse.
    static func check(_ notification: APNsNotification) -> String? {
        let token = notification.deviceToken
        guard !token.isEmpty, token.count % 2 == 0, token.allSatisfy(\.isHexDigit) else { return "BadDeviceToken (local: not hex)" }
        let size = notification.payload.readableBytes
        guard size > 0 else { return "PayloadEmpty (local)" }
        guard size <= notification.pushType.maxPayloadBytes else {
            return "PayloadTooLarge (local: \(size) bytes > \(notification.pushType.maxPayloadBytes))"
        }
        guard (try? JSONSerialization.jsonObject(with: Data(buffer: notification.payload))) is [String: Any] else {
            return "InvalidPayload (local: not a JSON object)"
        }
        if let collapseId = notification.collapseId, collapseId.utf8.count > 64 { return "BadCollapseId (local: over 64 bytes)" }
        if let priority = notification.priority, ![1, 5, 10].contains(priority) { return "BadPriority (local)" }
        if notification.pushType == .background, notification.priority == 10 { return "BadPriority (local: background pushes use 5)" }
        return nil
    }
}
