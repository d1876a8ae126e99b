import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldModels
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// Web Push (RFC 8030) for one `webpush` provider: each message sealed per RFC 8291, POSTed to
/// its subscription's endpoint with `TTL`, `Urgency`, `Topic` and RFC 8292's VAPID
/// authorisation. Endpoints belong to many push services (Google's, Mozilla's, Apple's,
/// Microsoft's, any UnifiedPush distributor): each origin gets its own pooled client (HTTP/2
/// where the service speaks it), pinned to addresses the webhook policy accepts, since the
/// endpoints are chosen by users' browsers and apps, not by the operator.
public final class WebPushClient: Sendable {
    private let tokens: VAPIDTokens
    private let policy: WebhookURLPolicy
    private let tls: TLSConfiguration
    private let wallClock: any WallClock
    private let pins = NIOLockedValueBox<[String: WebhookPin]>([:])
    private let clock = ContinuousClock()
    /// How long a push service has to answer.
    static let timeout: Duration = .seconds(10)

    public init(
        settings: WebPushSettings,
        privateKey: String,
        policy: WebhookURLPolicy,
        tls: TLSConfiguration,
        clock: any WallClock = SystemWallClock()
    ) throws {
        self.tokens = VAPIDTokens(key: try VAPIDKey(importing: privateKey), subject: settings.subject, clock: clock)
        self.policy = policy
        self.tls = tls
        self.wallClock = clock
    }

    public func shutdown() async {
        let all = pins.withLockedValue { pins in
            defer { pins = [:] }
            return Array(pins.values)
        }
        for pin in all { await pin.shutdown() }
    }

    public func send(_ message: WebPushMessage) async -> PushResult {
        let start = clock.now
        guard let origin = VAPIDTokens.origin(of: message.endpoint) else {
            return PushResult(outcome: .tokenInvalid(since: nil, hint: nil), reason: "the endpoint is not a URL")
        }
        let body: [UInt8]
        let authorization: String
        do {
            body = try message.body()
            authorization = try tokens.authorization(origin: origin)
        } catch {
            return PushResult(outcome: .failed, reason: "cannot seal the message: \(error)", latency: clock.now - start)
        }
        let http: HTTPClient
        do {
            http = try await pin(for: origin).client()
        } catch {
            let reason = (error as? HeraldError)?.message ?? "\(error)"
            // A name that does not resolve now may later; an address the policy refuses never will.
            let outcome: PushOutcome =
                reason.contains("does not resolve") ? .retryLater(after: nil) : .tokenInvalid(since: wallClock.now(), hint: nil)
            return PushResult(outcome: outcome, reason: "the endpoint's address is refused: \(reason)", latency: clock.now - start)
        }
        var request = HTTPClientRequest(url: message.endpoint)
        request.method = .POST
        request.headers.add(name: "TTL", value: String(message.ttlSeconds))
        request.headers.add(name: "Urgency", value: message.urgency.rawValue)
        if let topic = message.topic { request.headers.add(name: "Topic", value: topic) }
        request.headers.add(name: "Authorization", value: authorization)
        if message.keys != nil {
            request.headers.add(name: "Content-Encoding", value: "aes128gcm")
            request.headers.add(name: "Content-Type", value: "application/octet-stream")
        } else {
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await http.execute(request, timeout: .seconds(Int64(Self.timeout.components.seconds)))
            let answer = try? await response.body.collect(upTo: 16 * 1024)
            let status = Int(response.status.code)
            let retryAfter = RetryAfterHeader.parse(response.headers.first(name: "Retry-After"))
            let text = answer.map { String(buffer: $0) }.flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }
            return PushResult(
                outcome: Self.outcome(status: status, retryAfter: retryAfter, now: wallClock.now()),
                providerStatus: status,
                reason: status < 300 ? nil : text.map { "HTTP \(status): \($0)" } ?? "HTTP \(status)",
                providerMessageId: response.headers.first(name: "Location"),
                latency: clock.now - start
            )
        } catch {
            return PushResult(outcome: .retryLater(after: nil), reason: "transport: \(error)", latency: clock.now - start)
        }
    }

    /// RFC 8030's answers: `201` is accepted; `404` and `410` say the subscription is gone;
    /// `429` and `5xx` (and `408`) are worth retrying after `Retry-After`. A `401`/`403` (a VAPID
    /// token the service refuses) fails the one push and is not taken as a broken credential:
    /// endpoints are chosen by users, so one endpoint's answer must not stop the provider.
    static func outcome(status: Int, retryAfter: Duration?, now: Date) -> PushOutcome {
        switch status {
        case 200..<300: .delivered
        case 404, 410: .tokenInvalid(since: now, hint: nil)
        case 408, 429, 500...: .retryLater(after: retryAfter)
        default: .failed
        }
    }

    private func pin(for origin: String) -> WebhookPin {
        pins.withLockedValue { pins in
            if let pin = pins[origin] { return pin }
            let pin = WebhookPin(url: origin + "/", policy: policy, tls: tls)
            pins[origin] = pin
            return pin
        }
    }
}
