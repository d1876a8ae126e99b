import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldModels
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A Huawei Push Kit client for one app: OAuth client-credentials token (cached, refreshed ahead
/// of expiry, one refresh at a time), `POST /v1/{appId}/messages:send` with one token per
/// message. Push Kit is a low-volume provider next to APNs and FCM, so it rides
/// AsyncHTTPClient's pooled connections.
public final class HMSClient: Sendable {
    public let appId: String
    public let accessTokens: OAuthAccessTokens
    private let sendURL: String
    private let http: HTTPClient
    private let clock = ContinuousClock()

    public init(appId: String, clientSecret: String, endpoints: HMSEndpoints, http: HTTPClient, clock: any WallClock = SystemWallClock()) {
        self.appId = appId
        self.sendURL = endpoints.sendBase + "/v1/\(appId)/messages:send"
        self.http = http
        let tokenURL = endpoints.tokenURL
        self.accessTokens = OAuthAccessTokens(clock: clock) { now in
            try await OAuthAccessTokens.requestToken(
                http: http,
                url: tokenURL,
                form: [
                    ("grant_type", "client_credentials"), ("client_id", appId), ("client_secret", clientSecret),
                ],
                issuedAt: now
            )
        }
    }

    /// Sends one message and maps Push Kit's answer to an outcome. An access token Push Kit calls
    /// wrong or expired is refreshed once.
    public func send(_ message: HMSPush) async -> PushResult {
        let start = clock.now
        let body = ByteBuffer(bytes: JSONValue.object(message.requestBody).jsonBytes())
        var refreshed = false
        while true {
            let token: OAuthAccessTokens.Token
            do {
                token = try await accessTokens.token()
            } catch {
                return OAuthError.verdict(for: error, latency: clock.now - start)
            }
            var request = HTTPClientRequest(url: sendURL)
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(token.value)")
            request.headers.add(name: "Content-Type", value: "application/json; charset=UTF-8")
            request.body = .bytes(body)
            let status: Int
            let answer: HMSAnswer?
            let retryAfter: Duration?
            do {
                let response = try await http.execute(request, timeout: .seconds(15))
                let bytes = try await response.body.collect(upTo: 256 * 1024)
                status = Int(response.status.code)
                answer = try? JSONDecoder().decode(HMSAnswer.self, from: Data(buffer: bytes))
                retryAfter = RetryAfterHeader.parse(response.headers.first(name: "Retry-After"))
            } catch {
                return PushResult(outcome: .retryLater(after: nil), reason: "transport: \(error)", latency: clock.now - start)
            }
            let code = answer?.code ?? "HTTP \(status)"
            if HMSResultCode.authenticationCodes.contains(code) || (status == 401 && answer?.code == nil), !refreshed {
                await accessTokens.invalidate(token)
                refreshed = true
                continue
            }
            var outcome = HMSResultCode.outcome(code: code, status: status, retryAfter: retryAfter)
            if code == HMSResultCode.partialSuccess {
                outcome =
                    answer?.failedTokens().contains(message.token) == true
                    ? .tokenInvalid(since: nil, hint: "Push Kit refused the token") : .delivered
            }
            let reason = outcome == .delivered ? nil : [code, HMSResultCode.describe(code) ?? answer?.msg].compactMap { $0 }.joined(separator: ": ")
            return PushResult(
                outcome: outcome,
                providerStatus: status,
                reason: reason,
                providerMessageId: answer?.requestId,
                latency: clock.now - start
            )
        }
    }
}
