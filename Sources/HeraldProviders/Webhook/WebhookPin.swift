import AsyncHTTPClient
import Foundation
import HeraldCore
import NIOSSL

/// The address a webhook's connections go to. The host is resolved and checked against the
/// webhook policy before the first call and again once `recheck` has passed; the HTTP client then
/// connects only to that checked address (`dnsOverride`), so a DNS answer that changes between the
/// check and the connection cannot point Herald at an internal address. Redirects are not
/// followed: a 3xx is the webhook's answer, not a new target.
actor WebhookPin {
    private struct Pinned {
        let address: String?
        let client: HTTPClient
        var checkedAt: ContinuousClock.Instant
    }

    private let url: String
    private let policy: WebhookURLPolicy
    private let tls: TLSConfiguration
    private let recheck: Duration
    private var pinned: Pinned?
    private var retired: [HTTPClient] = []

    init(url: String, policy: WebhookURLPolicy, tls: TLSConfiguration, recheck: Duration = .seconds(30)) {
        self.url = url
        self.policy = policy
        self.tls = tls
        self.recheck = recheck
    }

    /// A client whose connections go to an address checked within `recheck`; throws the
    /// policy's `HeraldError` when the host now resolves to an address it refuses.
    func client() async throws -> HTTPClient {
        let now = ContinuousClock.now
        if let pinned, now - pinned.checkedAt < recheck { return pinned.client }
        let addresses = try await policy.check(url)
        let host = URLComponents(string: url)?.host ?? ""
        // A literal address needs no override; a name is pinned to its first checked address.
        let address = addresses.first.flatMap { IPAddress(host.trimmingCharacters(in: ["[", "]"])) == nil ? $0 : nil }
        if var current = pinned, current.address == address {
            current.checkedAt = now
            pinned = current
            return current.client
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        if let address { configuration.dnsOverride = [host: address] }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        if let old = pinned?.client { retired.append(old) }
        pinned = Pinned(address: address, client: client, checkedAt: now)
        return client
    }

    func shutdown() async {
        let clients = retired + (pinned.map { [$0.client] } ?? [])
        pinned = nil
        retired = []
        for client in clients { try? await client.shutdown() }
    }
}
