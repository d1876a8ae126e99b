import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldProviders
import HeraldTestSupport
import Testing
import _CryptoExtras

@Suite("FCM client against the stand-in")
struct FCMClientTests {
    struct Setup {
        let standIn: FCMStandIn
        let client: FCMClient
        let http: HTTPClient

        static func make(serviceAccount: [String: Any] = Fixtures.serviceAccount(), lean: Bool = false, http1Only: Bool = false) async throws -> Setup
        {
            let standIn = try await FCMStandIn.start(lean: lean, http1Only: http1Only)
            let account = try ServiceAccount(json: String(decoding: try JSONSerialization.data(withJSONObject: serviceAccount), as: UTF8.self))
            let key = try _RSA.Signing.PrivateKey(pemRepresentation: Fixtures.rsaKeyPEM)
            // The stand-in knows the standard fixture account only.
            standIn.trust(clientEmail: Fixtures.serviceAccount()["client_email"] as! String, publicKey: key.publicKey)
            var endpoints = FCMEndpoints()
            endpoints.send = HTTP2Endpoint(url: standIn.url)!
            endpoints.tokenURL = standIn.tokenURL
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: standIn.certificate.clientTLS))
            let client = FCMClient(account: account, endpoints: endpoints, tls: standIn.certificate.clientTLS, http: http)
            return Setup(standIn: standIn, client: client, http: http)
        }

        func close() async throws {
            await client.shutdown()
            try await http.shutdown()
            await standIn.shutdown()
        }
    }

    /// A batch keeps its order and each verdict; a revoked access token is refreshed once for the
    /// whole batch. Run against both servers (the lean one serves the load benchmark).
    @Test(arguments: [false, true])
    func aBatchKeepsItsOrderAndRefreshesTheTokenOnce(lean: Bool) async throws {
        let setup = try await Setup.make(lean: lean)
        let tokens = (0..<120).map { _ in Fixtures.fcmToken() }
        for index in stride(from: 5, to: 120, by: 40) { setup.standIn.script(token: tokens[index], .unregistered) }
        let messages = tokens.map { FCMPush(token: $0, data: ["type": "chat"], notification: .init(title: "Ana", body: "Hi")) }
        let first = await setup.client.send(messages)
        for (index, result) in first.enumerated() {
            if index % 40 == 5 {
                #expect(result.reason == "UNREGISTERED" && result.outcome.name == "token_invalid", "index \(index): \(result)")
            } else {
                #expect(result.outcome == .delivered, "index \(index): \(result)")
            }
        }
        #expect(setup.standIn.tokenRequests == 1)
        setup.standIn.revokeAccessTokens()
        let second = await setup.client.send(Array(messages[40..<80]))
        #expect(second.filter { $0.outcome == .delivered }.count == 39)
        #expect(second[5].reason == "UNREGISTERED")
        #expect(setup.standIn.tokenRequests == 2)
        try await setup.close()
    }

    @Test func sendsWithOneAccessTokenOnOneConnection() async throws {
        let setup = try await Setup.make()
        let results = await withTaskGroup(of: PushResult.self) { group in
            for index in 0..<40 {
                group.addTask {
                    await setup.client.send(
                        FCMPush(
                            token: Fixtures.fcmToken(),
                            data: ["type": "chat", "n": String(index)],
                            notification: .init(title: "Ana", body: "Hi")
                        )
                    )
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.outcome == .delivered && $0.providerMessageId?.hasPrefix("projects/acme-chat-app/messages/") == true })
        // One OAuth exchange however many sends waited for it, and one HTTP/2 connection.
        #expect(setup.standIn.tokenRequests == 1)
        #expect(await setup.client.accessTokens.fetches == 1)
        #expect(setup.client.connectionsOpened == 1)
        let message = try #require(setup.standIn.lastMessage)
        #expect(message["notification"]["title"].string == "Ana")
        #expect(message["data"].stringObject?["type"] == "chat")
        try await setup.close()
    }

    /// A server that speaks HTTP/1.1 only (ALPN) gets the same messages over HTTP/1.1.
    @Test func anHTTP1OnlyServerIsSentToOverHTTP1() async throws {
        let setup = try await Setup.make(http1Only: true)
        let tokens = (0..<12).map { _ in Fixtures.fcmToken() }
        setup.standIn.script(token: tokens[3], .unregistered)
        let results = await setup.client.send(
            tokens.map { FCMPush(token: $0, data: ["type": "chat"], notification: .init(title: "Ana", body: "Hi")) }
        )
        #expect(setup.client.usesHTTP1)
        #expect(
            results.enumerated().allSatisfy { $0.offset == 3 ? $0.element.reason == "UNREGISTERED" : $0.element.outcome == .delivered },
            "\(results.map { $0.reason ?? "-" }.prefix(2))"
        )
        #expect(setup.standIn.messageCount == 11)
        #expect(await setup.client.send(FCMPush(token: Fixtures.fcmToken(), data: ["k": "v"])).outcome == .delivered)
        try await setup.close()
    }

    @Test func errorsMapToOutcomesAndRetryAfterIsHonoured() async throws {
        let setup = try await Setup.make()
        let cases: [(FCMStandIn.Scripted, PushOutcome)] = [
            (.unregistered, .tokenInvalid(since: nil, hint: nil)),
            (
                .init(status: 403, canonical: "PERMISSION_DENIED", fcmError: "SENDER_ID_MISMATCH", message: "SenderId mismatch"),
                .tokenInvalid(since: nil, hint: "the token belongs to another Firebase project")
            ),
            (
                .init(
                    status: 400,
                    canonical: "INVALID_ARGUMENT",
                    fcmError: "INVALID_ARGUMENT",
                    message: "The registration token is not a valid FCM registration token"
                ), .tokenInvalid(since: nil, hint: "not a valid FCM registration token")
            ),
            (
                .init(
                    status: 400,
                    canonical: "INVALID_ARGUMENT",
                    fcmError: "INVALID_ARGUMENT",
                    message: "Invalid value at 'message.data[0].value' (TYPE_STRING), 12"
                ), .failed
            ),
            (
                .init(status: 429, canonical: "RESOURCE_EXHAUSTED", fcmError: "QUOTA_EXCEEDED", message: "Quota exceeded", retryAfter: "30"),
                .retryLater(after: .seconds(30))
            ),
            (
                .init(
                    status: 503,
                    canonical: "UNAVAILABLE",
                    fcmError: "UNAVAILABLE",
                    message: "The service is currently unavailable.",
                    retryAfter: "7"
                ), .retryLater(after: .seconds(7))
            ),
            (.init(status: 500, canonical: "INTERNAL", fcmError: "INTERNAL", message: "Internal error encountered."), .retryLater(after: nil)),
            (
                .init(
                    status: 401,
                    canonical: "UNAUTHENTICATED",
                    fcmError: "THIRD_PARTY_AUTH_ERROR",
                    message: "Auth error from APNS or Web Push Service"
                ), .credentialBroken
            ),
        ]
        for (scripted, expected) in cases {
            let token = Fixtures.fcmToken()
            setup.standIn.script(token: token, scripted)
            let result = await setup.client.send(FCMPush(token: token, data: ["k": "v"]))
            #expect(result.outcome == expected, "\(scripted.message)")
            #expect(result.providerStatus == scripted.status)
            #expect(result.reason == scripted.fcmError)
        }
        try await setup.close()
    }

    @Test func aRevokedAccessTokenIsRefreshedOnce() async throws {
        let setup = try await Setup.make()
        #expect(await setup.client.send(FCMPush(token: Fixtures.fcmToken())).outcome == .delivered)
        setup.standIn.revokeAccessTokens()
        #expect(await setup.client.send(FCMPush(token: Fixtures.fcmToken())).outcome == .delivered)
        #expect(setup.standIn.tokenRequests == 2)
        try await setup.close()
    }

    @Test func anUnknownServiceAccountIsABrokenCredential() async throws {
        let stranger = Fixtures.serviceAccount(projectId: "acme-chat-app")
            .merging(["client_email": "someone-else@acme-chat-app.iam.gserviceaccount.com"]) { $1 }
        let setup = try await Setup.make(serviceAccount: stranger)
        let result = await setup.client.send(FCMPush(token: Fixtures.fcmToken()))
        #expect(result.outcome == .credentialBroken)
        #expect(result.reason?.contains("invalid_grant") == true)
        #expect(setup.standIn.messageCount == 0)
        try await setup.close()
    }

    @Test func tokenURLIsGooglesOrTheOperators() throws {
        let json = { (uri: String) in
            String(decoding: try! JSONSerialization.data(withJSONObject: Fixtures.serviceAccount().merging(["token_uri": uri]) { $1 }), as: UTF8.self)
        }
        #expect(
            try ServiceAccount(json: json("https://oauth2.googleapis.com/token")).tokenURL(override: nil) == "https://oauth2.googleapis.com/token"
        )
        #expect(try ServiceAccount(json: json("https://evil.example.com/token")).tokenURL(override: nil) == ServiceAccount.googleTokenURL)
        #expect(try ServiceAccount(json: json("http://oauth2.googleapis.com/token")).tokenURL(override: nil) == ServiceAccount.googleTokenURL)
        #expect(
            try ServiceAccount(json: json("https://evil.example.com/token")).tokenURL(override: "https://127.0.0.1:9/token")
                == "https://127.0.0.1:9/token"
        )
    }
}
