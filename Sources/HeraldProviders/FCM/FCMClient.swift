import AsyncHTTPClient
import Foundation
import HeraldCore
import NIOCore
import NIOFoundationCompat
import NIOHPACK
import NIOSSL

/// FCM's send base and OAuth endpoint, Google's or the operator's (`HERALD_FCM_URL`, `HERALD_FCM_TOKEN_URL`).
public struct FCMEndpoints: Sendable {
    public var send = HTTP2Endpoint(host: "fcm.googleapis.com")
    public var tokenURL: String?

    public init() {}

    public init(environment: [String: String]) throws {
        if let url = environment["HERALD_FCM_URL"] {
            guard let endpoint = HTTP2Endpoint(url: url) else { throw HeraldError(.invalidField, "HERALD_FCM_URL must be https://host[:port]") }
            send = endpoint
        }
        tokenURL = environment["HERALD_FCM_TOKEN_URL"]
    }
}

/// An FCM HTTP v1 client for one service account: sends on pooled HTTP/2 connections with a
/// cached OAuth access token.
public final class FCMClient: Sendable {
    public let projectId: String
    public let accessTokens: FCMAccessTokens
    private let pool: HTTP2ConnectionPool
    private let clock = ContinuousClock()
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    public init(account: ServiceAccount, endpoints: FCMEndpoints, tls: TLSConfiguration, http: HTTPClient,
                clock: any WallClock = SystemWallClock(), maxConnections: Int = 4) {
        self.projectId = account.projectId
        self.accessTokens = FCMAccessTokens(account: account, tokenURL: account.tokenURL(override: endpoints.tokenURL), http: http, clock: clock)
        self.pool = HTTP2ConnectionPool(endpoint: endpoints.send, tls: tls, maxConnections: maxConnections)
    }

    public var connectionsOpened: Int { pool.connectionsOpened }

    public func shutdown() async { await pool.shutdown() }

    public func send(_ message: FCMMessage) async -> PushResult {
        let start = clock.now
        let body: ByteBuffer
        do {
            body = ByteBuffer(data: try encoder.encode(["message": message]))
        } catch {
            return PushResult(outcome: .failed, reason: "the message does not encode: \(error)")
        }
        var refreshed = false
        while true {
            let token: FCMAccessTokens.Token
            do {
                token = try await accessTokens.token()
            } catch let error as FCMAuthError where error.isCredentialProblem {
                return PushResult(outcome: .credentialBroken, providerStatus: error.status, reason: error.description, latency: clock.now - start)
            } catch {
                return PushResult(outcome: .retryLater(after: nil), reason: "OAuth: \(error)", latency: clock.now - start)
            }
            let request = HTTP2Request(
                path: "/v1/projects/\(projectId)/messages:send",
                headers: ["authorization": "Bearer \(token.value)", "content-type": "application/json"], body: body
            )
            let response: HTTP2Response
            do {
                response = try await pool.send(request)
            } catch {
                return PushResult(outcome: .retryLater(after: nil), reason: "transport: \(error)", latency: clock.now - start)
            }
            if response.status == 200 {
                struct Sent: Decodable { var name: String? }
                let name = try? JSONDecoder().decode(Sent.self, from: Data(buffer: response.body)).name
                return PushResult(outcome: .delivered, providerStatus: 200, providerMessageId: name, latency: clock.now - start)
            }
            if response.status == 401, !refreshed {
                await accessTokens.invalidate(token)
                refreshed = true
                continue
            }
            let error = try? JSONDecoder().decode(FCMErrorBody.self, from: Data(buffer: response.body))
            let reason = error?.reason ?? "HTTP \(response.status)"
            let outcome = FCMErrorMapping.outcome(
                status: response.status, reason: reason, message: error?.error.message,
                retryAfter: FCMErrorMapping.retryAfter(response.headers.first(name: "retry-after"))
            )
            return PushResult(outcome: outcome, providerStatus: response.status, reason: reason, latency: clock.now - start)
        }
    }
}
