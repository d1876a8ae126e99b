import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldModels
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL

/// CometChat's custom provider: an HTTPS POST of the envelope, `Authorization: Basic` when
/// configured, answered within 2 seconds; any 2xx is success. Connections go only to addresses
/// the webhook policy accepts, checked again as DNS answers age (`WebhookPin`).
public struct WebhookClient: Sendable {
    public let url: String
    let basicAuth: (username: String, password: String)?
    let pin: WebhookPin
    /// CometChat: the endpoint answers within 2 seconds (`HERALD_WEBHOOK_TIMEOUT_MS`).
    let timeout: Duration

    public init(url: String, username: String?, password: String?, policy: WebhookURLPolicy, tls: TLSConfiguration, timeout: Duration = .seconds(2)) {
        self.url = url
        self.basicAuth = username.flatMap { user in password.map { (user, $0) } }
        self.pin = WebhookPin(url: url, policy: policy, tls: tls)
        self.timeout = timeout
    }

    public func shutdown() async {
        await pin.shutdown()
    }

    public func send(_ envelope: WebhookEnvelope) async -> PushResult {
        let clock = ContinuousClock()
        let start = clock.now
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Herald")
        if let basicAuth {
            request.headers.add(
                name: "Authorization",
                value: "Basic " + Data("\(basicAuth.username):\(basicAuth.password)".utf8).base64EncodedString()
            )
        }
        let http: HTTPClient
        do {
            http = try await pin.client()
        } catch {
            let reason = (error as? HeraldError)?.message ?? "\(error)"
            return PushResult(outcome: .credentialBroken, reason: "the webhook address is refused: \(reason)", latency: clock.now - start)
        }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            request.body = .bytes(ByteBuffer(data: try encoder.encode(envelope)))
            let finalRequest = request
            let timeout = self.timeout
            // The client's own deadline is not enforced promptly on every path, so the limit is raced here.
            let (status, retryAfter) = try await withThrowingTaskGroup(of: (Int, Duration?)?.self) { group in
                group.addTask {
                    let response = try await http.execute(finalRequest, timeout: .seconds(30))
                    _ = try? await response.body.collect(upTo: 64 * 1024)
                    return (Int(response.status.code), RetryAfterHeader.parse(response.headers.first(name: "Retry-After")))
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let answer = first else { throw WebhookTimeout() }
                return answer
            }
            let outcome: PushOutcome
            switch status {
            case 200..<300: outcome = .delivered
            case 401, 403: outcome = .credentialBroken
            case 408, 429, 500...: outcome = .retryLater(after: retryAfter)
            default: outcome = .failed
            }
            return PushResult(outcome: outcome, providerStatus: status, reason: status < 300 ? nil : "HTTP \(status)", latency: clock.now - start)
        } catch {
            let timedOut = error is WebhookTimeout || "\(error)".localizedCaseInsensitiveContains("deadline")
            return PushResult(
                outcome: .retryLater(after: nil),
                reason: timedOut ? "no answer within \(timeout)" : "transport: \(error)",
                latency: clock.now - start
            )
        }
    }
}
