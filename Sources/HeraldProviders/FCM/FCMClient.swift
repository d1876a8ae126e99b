import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldModels
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHPACK
import NIOSSL

/// An FCM HTTP v1 client for one service account: sends on pooled HTTP/2 connections with a
/// cached OAuth access token. A server that only speaks HTTP/1.1 (chosen by ALPN) is sent to
/// through AsyncHTTPClient instead, slower but correct.
public final class FCMClient: Sendable {
    public let projectId: String
    let path: String
    public let accessTokens: OAuthAccessTokens
    let pool: HTTP2ConnectionPool
    let http: HTTPClient
    /// Set once the server turned out to speak HTTP/1.1 only.
    let http1Only = NIOLockedValueBox(false)
    private let clock = ContinuousClock()

    public init(
        account: ServiceAccount,
        endpoints: FCMEndpoints,
        tls: TLSConfiguration,
        http: HTTPClient,
        clock: any WallClock = SystemWallClock(),
        maxConnections: Int = 16
    ) {
        self.projectId = account.projectId
        self.path = "/v1/projects/\(account.projectId)/messages:send"
        let tokenURL = account.tokenURL(override: endpoints.tokenURL)
        // The OAuth 2.0 service-account flow: an RS256 assertion for the messaging scope.
        self.accessTokens = OAuthAccessTokens(clock: clock) { now in
            let assertion = try account.assertion(audience: tokenURL, issuedAt: now)
            return try await OAuthAccessTokens.requestToken(
                http: http,
                url: tokenURL,
                form: [
                    ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion),
                ],
                issuedAt: now
            )
        }
        self.pool = HTTP2ConnectionPool(endpoint: endpoints.send, tls: tls, maxConnections: maxConnections)
        self.http = http
    }

    /// Whether sends go over HTTP/1.1 because the server does not speak HTTP/2.
    public var usesHTTP1: Bool { http1Only.withLockedValue { $0 } }

    public var connectionsOpened: Int { pool.connectionsOpened }

    public func shutdown() async { await pool.shutdown() }

    public func send(_ message: FCMPush) async -> PushResult {
        await send([message])[0]
    }

    /// Sends messages together on one connection (one write, one flush) and maps each answer to
    /// an outcome, in the order given. A 401 refreshes the access token once for the batch.
    public func send(_ messages: [FCMPush]) async -> [PushResult] {
        let start = clock.now
        var results = [PushResult](repeating: PushResult(outcome: .failed, reason: "not sent"), count: messages.count)
        var bodies: [Int: ByteBuffer] = [:]
        for (index, message) in messages.enumerated() {
            bodies[index] = ByteBuffer(bytes: JSONValue.object(["message": .object(message.message)]).jsonBytes())
        }
        var ready = bodies.keys.sorted()
        var refreshed = false
        while !ready.isEmpty {
            let token: OAuthAccessTokens.Token
            do {
                token = try await accessTokens.token()
            } catch {
                let result = OAuthError.verdict(for: error, latency: clock.now - start)
                for index in ready { results[index] = result }
                return results
            }
            let headers: HPACKHeaders = ["authorization": "Bearer \(token.value)", "content-type": "application/json"]
            let answers = await exchange(ready.map { HTTP2Request(path: path, headers: headers, body: bodies[$0]) })
            var unauthorized: [Int] = []
            for (index, answer) in zip(ready, answers) {
                if case .success(let response) = answer, response.status == 401, !refreshed {
                    unauthorized.append(index)
                } else {
                    results[index] = verdict(answer, since: start)
                }
            }
            ready = []
            if !unauthorized.isEmpty {
                await accessTokens.invalidate(token)
                refreshed = true
                ready = unauthorized
            }
        }
        return results
    }

    private func verdict(_ answer: Result<HTTP2Response, HTTP2TransportError>, since start: ContinuousClock.Instant) -> PushResult {
        let response: HTTP2Response
        switch answer {
        case .success(let value): response = value
        case .failure(let error): return PushResult(outcome: .retryLater(after: nil), reason: "transport: \(error)", latency: clock.now - start)
        }
        if response.status == 200 {
            struct Sent: Decodable { var name: String? }
            let name = try? JSONDecoder().decode(Sent.self, from: Data(buffer: response.body)).name
            return PushResult(outcome: .delivered, providerStatus: 200, providerMessageId: name, latency: clock.now - start)
        }
        let error = try? JSONDecoder().decode(FCMErrorBody.self, from: Data(buffer: response.body))
        let reason = error?.reason ?? "HTTP \(response.status)"
        let outcome = FCMErrorMapping.outcome(
            status: response.status,
            reason: reason,
            message: error?.error.message,
            retryAfter: RetryAfterHeader.parse(response.headers.first(name: "retry-after"))
        )
        return PushResult(outcome: outcome, providerStatus: response.status, reason: reason, latency: clock.now - start)
    }
}
