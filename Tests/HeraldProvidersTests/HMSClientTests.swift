import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldModels
import HeraldProviders
import HeraldTestSupport
import Testing

@Suite("HMS client against the stand-in")
struct HMSClientTests {
    struct Setup {
        let standIn: HMSStandIn
        let client: HMSClient
        let http: HTTPClient

        static func make(clientSecret: String = "s3cret-of-the-app") async throws -> Setup {
            let standIn = try await HMSStandIn.start()
            standIn.register(appId: "101234567", clientSecret: "s3cret-of-the-app")
            var endpoints = HMSEndpoints()
            endpoints.sendBase = standIn.url
            endpoints.tokenURL = standIn.tokenURL
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: standIn.certificate.clientTLS))
            return Setup(
                standIn: standIn,
                client: HMSClient(appId: "101234567", clientSecret: clientSecret, endpoints: endpoints, http: http),
                http: http
            )
        }

        func close() async throws {
            try await http.shutdown()
            await standIn.shutdown()
        }
    }

    @Test func sendsDataAndNotificationWithOneAccessToken() async throws {
        let setup = try await Setup.make()
        let results = await withTaskGroup(of: PushResult.self) { group in
            for index in 0..<20 {
                group.addTask {
                    await setup.client.send(
                        HMSPush(
                            token: Fixtures.hmsToken(),
                            data: ["type": "chat", "n": String(index)],
                            title: "Ana",
                            body: "Hi",
                            urgency: .high,
                            category: "IM",
                            ttlSeconds: 3600
                        )
                    )
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.outcome == .delivered && $0.providerMessageId != nil })
        #expect(setup.standIn.tokenRequests == 1)
        #expect(await setup.client.accessTokens.fetches == 1)
        // The wire shape: data as one JSON string, the notification under android with a click action.
        let message = try #require(setup.standIn.lastMessage)
        let data = try #require(message["data"].string)
        #expect(try JSONValue(jsonText: data).stringObject?["type"] == "chat")
        let android = message["android"]
        try #require(android.object != nil)
        #expect(android["urgency"].string == "HIGH" && android["category"].string == "IM" && android["ttl"].string == "3600s")
        let notification = android["notification"]
        try #require(notification.object != nil)
        #expect(notification["title"].string == "Ana" && notification["body"].string == "Hi")
        #expect(notification["click_action"]["type"].int == 3)
        #expect(message["token"].strings?.count == 1)
        try await setup.close()
    }

    @Test func codesMapToOutcomes() async throws {
        let setup = try await Setup.make()
        let cases: [(HMSStandIn.Scripted, PushOutcome)] = [
            (.invalidToken, .tokenInvalid(since: nil, hint: "the token is malformed or was issued to another app")),
            (.busy, .retryLater(after: .seconds(9))),
            (.init(status: 400, code: "80300008", msg: "The message body size exceeds the default value"), .failed),
            (.init(status: 403, code: "80300002", msg: "No permission to send messages"), .credentialBroken),
            (
                .init(status: 200, code: "80100000", msg: #"{"success":0,"failure":1,"illegal_tokens":["TOKEN"]}"#),
                .tokenInvalid(since: nil, hint: "Push Kit refused the token")
            ),
        ]
        for (scripted, expected) in cases {
            let token = Fixtures.hmsToken()
            var answer = scripted
            answer.msg = answer.msg.replacingOccurrences(of: "TOKEN", with: token)
            setup.standIn.script(token: token, answer)
            let result = await setup.client.send(HMSPush(token: token, data: ["k": "v"]))
            #expect(result.outcome == expected, "\(scripted.code)")
            #expect(result.providerStatus == scripted.status)
            #expect(result.reason?.hasPrefix(scripted.code) == true, "\(result)")
        }
        try await setup.close()
    }

    @Test func anExpiredAccessTokenIsRefreshedOnce() async throws {
        let setup = try await Setup.make()
        #expect(await setup.client.send(HMSPush(token: Fixtures.hmsToken(), data: ["k": "v"])).outcome == .delivered)
        setup.standIn.expireAccessTokens()
        #expect(await setup.client.send(HMSPush(token: Fixtures.hmsToken(), data: ["k": "v"])).outcome == .delivered)
        #expect(setup.standIn.tokenRequests == 2)
        try await setup.close()
    }

    @Test func aWrongClientSecretIsABrokenCredential() async throws {
        let setup = try await Setup.make(clientSecret: "not-the-secret")
        let result = await setup.client.send(HMSPush(token: Fixtures.hmsToken(), data: ["k": "v"]))
        #expect(result.outcome == .credentialBroken)
        #expect(result.reason?.contains("invalid client secret") == true, "\(result)")
        #expect(setup.standIn.messageCount == 0)
        try await setup.close()
    }

    @Test func endpointsComeFromTheOperator() throws {
        let endpoints = try HMSEndpoints(environment: [
            "HERALD_HMS_URL": "https://127.0.0.1:9443/", "HERALD_HMS_TOKEN_URL": "https://127.0.0.1:9444/oauth2/v3/token",
        ])
        #expect(endpoints.sendBase == "https://127.0.0.1:9443")
        #expect(endpoints.tokenURL == "https://127.0.0.1:9444/oauth2/v3/token")
        #expect(throws: (any Error).self) { try HMSEndpoints(environment: ["HERALD_HMS_URL": "http://127.0.0.1:9443"]) }
        #expect(HMSEndpoints().sendBase == "https://push-api.cloud.huawei.com")
    }
}
