import Crypto
import Foundation
import HeraldCore
import HeraldProviders
import HeraldTestSupport
import NIOCore
import NIOSSL
import Testing

@Suite("APNs client against the stand-in")
struct APNsClientTests {
    struct Setup {
        let standIn: APNsStandIn
        let client: APNsClient
        let signer: APNsTokenSigner
        let key: P256.Signing.PrivateKey

        static func make(production: Bool = false, lean: Bool = false) async throws -> Setup {
            let standIn = try await APNsStandIn.start(lean: lean)
            let key = P256.Signing.PrivateKey()
            standIn.trust(keyId: Fixtures.apnsKeyId, publicKey: key.publicKey)
            let signer = try APNsTokenSigner(privateKeyPEM: key.pemRepresentation, keyId: Fixtures.apnsKeyId, teamId: "DEF123GHIJ")
            var endpoints = APNsEndpoints()
            endpoints.sandbox = HTTP2Endpoint(url: standIn.endpointURL)!
            endpoints.production = HTTP2Endpoint(url: standIn.endpointURL)!
            let client = APNsClient(
                bundleId: "com.acme.app",
                production: production,
                authentication: .token(signer),
                tls: standIn.certificate.clientTLS,
                endpoints: endpoints
            )
            return Setup(standIn: standIn, client: client, signer: signer, key: key)
        }

        func close() async {
            await client.shutdown()
            await standIn.shutdown()
        }
    }

    static func alert(
        _ token: String = Fixtures.apnsToken(),
        type: APNsPushType = .alert,
        payload: String = #"{"aps":{"alert":{"title":"Ana","body":"Hi"}}}"#
    ) -> APNsNotification {
        APNsNotification(deviceToken: token, pushType: type, payload: ByteBuffer(string: payload))
    }

    @Test func deliversWithOneConnectionAndOneSignedToken() async throws {
        let setup = try await Setup.make()
        let results = await withTaskGroup(of: PushResult.self) { group in
            for _ in 0..<50 { group.addTask { await setup.client.send(Self.alert()) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.outcome == .delivered && $0.providerStatus == 200 && $0.providerMessageId != nil })
        #expect(setup.client.connectionsOpened == 1)
        #expect(setup.standIn.connections == 1)
        #expect(setup.signer.signatures == 1)
        let request = try #require(setup.standIn.received.first)
        #expect(request.headers["apns-topic"] == "com.acme.app")
        #expect(request.headers["apns-push-type"] == "alert")
        #expect(request.headers["apns-priority"] == "10")
        #expect(request.headers[":method"] == "POST")
        await setup.close()
    }

    @Test func voipAndBackgroundUseTheirTopicsPrioritiesAndLimits() async throws {
        let setup = try await Setup.make()
        let bigVoIP = #"{"aps":{},"pad":""# + String(repeating: "x", count: 4600) + #""}"#
        #expect(await setup.client.send(Self.alert(type: .voip, payload: bigVoIP)).outcome == .delivered)
        #expect(await setup.client.send(Self.alert(type: .background, payload: #"{"aps":{"content-available":1}}"#)).outcome == .delivered)
        let received = setup.standIn.received
        #expect(received.map { $0.headers["apns-topic"] } == ["com.acme.app.voip", "com.acme.app"])
        #expect(received.map { $0.headers["apns-priority"] } == ["10", "5"])

        // Over the limit, or not a JSON object: a local error, no request.
        let tooBig = await setup.client.send(Self.alert(payload: bigVoIP))
        #expect(tooBig.outcome == .failed)
        #expect(tooBig.reason?.hasPrefix("PayloadTooLarge") == true)
        #expect(await setup.client.send(Self.alert(payload: "[1,2]")).outcome == .failed)
        var collapse = Self.alert()
        collapse.collapseId = String(repeating: "c", count: 65)
        #expect(await setup.client.send(collapse).reason?.hasPrefix("BadCollapseId") == true)
        #expect(setup.standIn.received.count == 2)
        await setup.close()
    }

    @Test func headersAreSentAsGiven() async throws {
        let setup = try await Setup.make()
        var notification = Self.alert()
        let id = UUID()
        notification.apnsId = id
        notification.collapseId = "chat-42"
        notification.expiration = .at(Date(timeIntervalSince1970: 2_000_000_000))
        notification.priority = 5
        let result = await setup.client.send(notification)
        #expect(result.outcome == .delivered)
        #expect(result.providerMessageId == id.uuidString.lowercased())
        let headers = try #require(setup.standIn.received.first?.headers)
        #expect(headers["apns-collapse-id"] == "chat-42")
        #expect(headers["apns-expiration"] == "2000000000")
        #expect(headers["apns-priority"] == "5")
        #expect(headers["apns-id"] == id.uuidString.lowercased())
        await setup.close()
    }

    @Test func everyReasonMapsToAnOutcome() async throws {
        let setup = try await Setup.make(production: true)
        let cases: [(APNsStandIn.Scripted, PushOutcome)] = [
            (
                .init(status: 410, reason: "Unregistered", timestampMs: 1_700_000_000_000),
                .tokenInvalid(since: Date(timeIntervalSince1970: 1_700_000_000), hint: nil)
            ),
            (.init(status: 410, reason: "ExpiredToken"), .tokenInvalid(since: nil, hint: nil)),
            (
                .init(status: 400, reason: "BadDeviceToken"),
                .tokenInvalid(since: nil, hint: "the token may be a sandbox (development) token sent to production")
            ),
            (.init(status: 429, reason: "TooManyRequests"), .retryLater(after: .seconds(60))),
            (.init(status: 503, reason: "ServiceUnavailable"), .retryLater(after: nil)),
            (.init(status: 500, reason: "InternalServerError"), .retryLater(after: nil)),
            (.init(status: 403, reason: "BadCertificateEnvironment"), .credentialBroken),
            (.init(status: 400, reason: "TopicDisallowed"), .credentialBroken),
            (.init(status: 413, reason: "PayloadTooLarge"), .failed),
            (.init(status: 400, reason: "SomethingNew"), .failed),
            (.init(status: 502, reason: "SomethingElseNew"), .retryLater(after: nil)),
        ]
        for (scripted, expected) in cases {
            let token = Fixtures.apnsToken()
            setup.standIn.script(deviceToken: token, scripted)
            let result = await setup.client.send(Self.alert(token))
            #expect(result.outcome == expected, "\(scripted.reason)")
            #expect(result.providerStatus == scripted.status)
            #expect(result.reason == scripted.reason)
        }
        await setup.close()
    }

    @Test func aTokenFromAnUnknownKeyIsABrokenCredential() async throws {
        let setup = try await Setup.make()
        let stranger = try APNsTokenSigner(
            privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation,
            keyId: Fixtures.apnsKeyId,
            teamId: "DEF123GHIJ"
        )
        var endpoints = APNsEndpoints()
        endpoints.sandbox = HTTP2Endpoint(url: setup.standIn.endpointURL)!
        let client = APNsClient(
            bundleId: "com.acme.app",
            production: false,
            authentication: .token(stranger),
            tls: setup.standIn.certificate.clientTLS,
            endpoints: endpoints
        )
        let result = await client.send(Self.alert())
        #expect(result.outcome == .credentialBroken)
        #expect(result.reason == "InvalidProviderToken")
        let wrongBundle = APNsClient(
            bundleId: "com.other.app",
            production: false,
            authentication: .token(setup.signer),
            tls: setup.standIn.certificate.clientTLS,
            endpoints: endpoints
        )
        #expect(await wrongBundle.send(Self.alert()).reason == "TopicDisallowed")
        await client.shutdown()
        await wrongBundle.shutdown()
        await setup.close()
    }

    @Test func expiredProviderTokenIsRenewedOnceAndRetried() async throws {
        let setup = try await Setup.make()
        #expect(await setup.client.send(Self.alert()).outcome == .delivered)
        // APNs now considers every token issued so far expired (its clock is ahead).
        // `iat` is whole seconds: reject everything issued before the next whole second, then pass it.
        let nextSecond = Date(timeIntervalSince1970: (Date().timeIntervalSince1970).rounded(.down) + 1)
        setup.standIn.rejectTokens(issuedBefore: nextSecond)
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(await setup.client.send(Self.alert()).outcome == .delivered)
        #expect(setup.signer.signatures == 2)
        // A freshly renewed token that APNs still rejects is not renewed again: no token churn.
        setup.standIn.rejectTokens(issuedBefore: Date().addingTimeInterval(3600))
        let result = await setup.client.send(Self.alert())
        #expect(result.reason == "ExpiredProviderToken")
        #expect(result.outcome.isRetryable)
        #expect(setup.signer.signatures == 2)
        await setup.close()
    }

    /// A batch is written together; each answer lands at its notification's place, local refusals
    /// never become requests, and an expired provider token is renewed once for the whole batch.
    /// Run against both servers: the lean one serves the load benchmark and must answer alike.
    @Test(arguments: [false, true])
    func aBatchKeepsItsOrderAndEachVerdict(lean: Bool) async throws {
        let setup = try await Setup.make(lean: lean)
        let tokens = (0..<300).map { _ in Fixtures.apnsToken() }
        for index in stride(from: 7, to: 300, by: 50) {
            setup.standIn.script(deviceToken: tokens[index], .init(status: 410, reason: "Unregistered", timestampMs: 1_700_000_000_000))
        }
        var batch = tokens.map { Self.alert($0) }
        batch[3] = Self.alert(tokens[3], payload: "[1]")
        let results = await setup.client.send(batch)
        #expect(results.count == 300)
        for (index, result) in results.enumerated() {
            if index == 3 {
                #expect(result.outcome == .failed && result.reason?.hasPrefix("InvalidPayload") == true)
            } else if index % 50 == 7 {
                #expect(result.reason == "Unregistered" && result.outcome.name == "token_invalid", "index \(index): \(result)")
            } else {
                #expect(result.outcome == .delivered, "index \(index): \(result)")
            }
        }
        #expect(setup.standIn.received.count == 299)

        // APNs's clock says the token is stale: the batch's refused pushes go again with one new token.
        let before = setup.signer.signatures
        // Tokens carry whole seconds: refuse the current token's second, then wait for the next.
        let issued = try setup.signer.token().issuedAt
        let cutoff = Date(timeIntervalSince1970: issued.timeIntervalSince1970.rounded(.down) + 1)
        setup.standIn.rejectTokens(issuedBefore: cutoff)
        try await Task.sleep(for: .milliseconds(Int64(max(0, cutoff.timeIntervalSinceNow) * 1000) + 50))
        let again = await setup.client.send(Array(batch[100..<150]))
        #expect(again.filter { $0.outcome == .delivered }.count == 49)
        #expect(again[7].reason == "Unregistered")
        #expect(setup.signer.signatures == before + 1)
        await setup.close()
    }

    @Test(arguments: [false, true])
    func goAwayMidBatchResendsWhatWasNotProcessed(lean: Bool) async throws {
        let setup = try await Setup.make(lean: lean)
        setup.standIn.goAway(afterStreams: 40)
        let results = await setup.client.send((0..<200).map { _ in Self.alert() })
        let failed = results.filter { $0.outcome != .delivered }
        #expect(failed.isEmpty, "\(failed.count) lost, e.g. \(failed.first.map { "\($0)" } ?? "")")
        #expect(setup.client.connectionsOpened >= 2)
        #expect(setup.standIn.received.count >= 200)
        await setup.close()
    }

    @Test func goAwayMidStreamReconnectsAndLosesNothing() async throws {
        let setup = try await Setup.make()
        setup.standIn.goAway(afterStreams: 25)
        let results = await withTaskGroup(of: PushResult.self) { group in
            for _ in 0..<200 { group.addTask { await setup.client.send(Self.alert()) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let failed = results.filter { $0.outcome != .delivered }
        #expect(failed.isEmpty, "\(failed.count) lost, e.g. \(failed.first.map { "\($0)" } ?? "")")
        #expect(setup.client.connectionsOpened >= 2)
        #expect(setup.standIn.connections >= 2)
        await setup.close()
    }

    @Test func certificateAuthPresentsTheClientCertificate() async throws {
        let p12 = try Fixtures.p12("apns-valid")
        let bundle = try NIOSSLPKCS12Bundle(buffer: Array(Data(base64Encoded: p12)!), passphrase: Array(Fixtures.p12Password.utf8))
        let standIn = try await APNsStandIn.start(requireClientCertificate: true, clientTrustRoot: bundle.certificateChain[0])
        var endpoints = APNsEndpoints()
        endpoints.sandbox = HTTP2Endpoint(url: standIn.endpointURL)!
        let settings = APNsSettings(
            auth: .certificate(subject: "CN=Apple Push Services: com.acme.app", expiresAt: .distantFuture),
            bundleId: "com.acme.app"
        )
        var secret = ProviderSecret()
        secret.p12Base64 = p12
        secret.p12Password = Fixtures.p12Password
        let client = try APNsClient.make(settings: settings, secret: secret, baseTLS: standIn.certificate.clientTLS, endpoints: endpoints)
        let result = await client.send(Self.alert())
        #expect(result.outcome == .delivered, "\(result)")
        let subject = try #require(standIn.received.first?.clientCertificateSubject)
        #expect(subject.contains("Apple Push Services: com.acme.app"))
        #expect(standIn.received.first?.headers["authorization"] == nil)

        // Without the certificate, the stand-in's TLS handshake refuses the connection.
        let anonymous = APNsClient(
            bundleId: "com.acme.app",
            production: false,
            authentication: .certificate,
            tls: standIn.certificate.clientTLS,
            endpoints: endpoints
        )
        #expect(await anonymous.send(Self.alert()).outcome.isRetryable)
        #expect(standIn.received.count == 1)
        await client.shutdown()
        await anonymous.shutdown()
        await standIn.shutdown()
    }
}
