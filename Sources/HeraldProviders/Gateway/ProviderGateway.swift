import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldModels
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOSSL

/// Sends prepared pushes with stored credentials: one client per credential version, built on
/// first use and kept, so connections, signed tokens and access tokens are reused.
public final class ProviderGateway: PushGateway {
    struct Key: Hashable {
        let appId: String
        let providerId: String
    }

    private let endpoints: ProviderEndpoints
    private let webhookPolicy: WebhookURLPolicy
    private let openSecret: @Sendable (ProviderCredential) throws -> ProviderSecret
    private let clock: any WallClock
    public let http: HTTPClient
    private let clients = NIOLockedValueBox<[Key: (version: Date, client: any ProviderClient)]>([:])

    /// - Parameter webhookPolicy: the addresses custom webhooks may reach, checked before each
    ///   connection as well as when the provider is saved.
    public init(
        endpoints: ProviderEndpoints,
        webhookPolicy: WebhookURLPolicy,
        clock: any WallClock = SystemWallClock(),
        openSecret: @escaping @Sendable (ProviderCredential) throws -> ProviderSecret
    ) {
        self.endpoints = endpoints
        self.webhookPolicy = webhookPolicy
        self.openSecret = openSecret
        self.clock = clock
        var configuration = HTTPClient.Configuration(tlsConfiguration: endpoints.tls)
        // OAuth endpoints get time to connect; webhooks keep their own 2-second limit (WebhookClient).
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(10))
        self.http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    public func shutdown() async {
        let all = clients.withLockedValue { clients in
            defer { clients = [:] }
            return clients.values.map(\.client)
        }
        for client in all { await client.shutdown() }
        try? await http.shutdown()
    }

    /// Sends pushes of one credential: APNs and FCM batches go out as one write and one flush on
    /// their HTTP/2 connections; webhook and HMS calls run concurrently.
    public func send(_ pushes: [OutgoingPush], credential: ProviderCredential) async -> [PushResult] {
        do {
            let client = try client(for: credential)
            return await client.send(pushes)
        } catch {
            return pushes.map { _ in PushResult(outcome: .credentialBroken, reason: "the credential cannot be used: \(error)") }
        }
    }

    private func client(for credential: ProviderCredential) throws -> any ProviderClient {
        let key = Key(appId: credential.appId, providerId: credential.providerId)
        if let cached = clients.withLockedValue({ $0[key] }), cached.version == credential.updatedAt { return cached.client }
        let client = try makeClient(credential)
        let replaced: (any ProviderClient)? = clients.withLockedValue { clients in
            if let current = clients[key], current.version >= credential.updatedAt { return nil }
            defer { clients[key] = (credential.updatedAt, client) }
            return clients[key]?.client
        }
        if let replaced { Task { await replaced.shutdown() } }
        return clients.withLockedValue { $0[key]?.client } ?? client
    }

    private func makeClient(_ credential: ProviderCredential) throws -> any ProviderClient {
        let secret = try openSecret(credential)
        switch credential.config.settings {
        case .apns(let settings):
            return try APNsClient.make(settings: settings, secret: secret, baseTLS: endpoints.tls, endpoints: endpoints.apns, clock: clock)
        case .fcm:
            guard let json = secret.serviceAccountJSON else { throw HeraldError(.internal, "the service account is missing") }
            return FCMClient(account: try ServiceAccount(json: json), endpoints: endpoints.fcm, tls: endpoints.tls, http: http, clock: clock)
        case .webhook(let settings):
            return WebhookClient(
                url: settings.url,
                username: settings.basicAuthUsername,
                password: secret.basicAuthPassword,
                policy: webhookPolicy,
                tls: endpoints.tls,
                timeout: endpoints.webhookTimeout
            )
        case .hms(let settings):
            guard let clientSecret = secret.hmsClientSecret else { throw HeraldError(.internal, "the HMS client secret is missing") }
            return HMSClient(appId: settings.appId, clientSecret: clientSecret, endpoints: endpoints.hms, http: http, clock: clock)
        case .webPush(let settings):
            guard let key = secret.vapidPrivateKey else { throw HeraldError(.internal, "the VAPID private key is missing") }
            return try WebPushClient(settings: settings, privateKey: key, policy: webhookPolicy, tls: endpoints.tls, clock: clock)
        }
    }
}
