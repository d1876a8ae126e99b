import Crypto
import Foundation
import HeraldModels
import HeraldTestSupport
import NIOConcurrencyHelpers
import Testing
import _CryptoExtras

/// Test sends through the running server's real clients to the APNs, FCM and webhook stand-ins.
@Suite("Test sends and token pruning")
struct TestSendAPITests {
    struct World {
        let herald: TestHerald
        let apns: APNsStandIn
        let fcm: FCMStandIn
        let hms: HMSStandIn
        let hook: WebhookStandIn
        let slowHook: WebhookStandIn
        let apiKey: String

        /// Only the slow-webhook test keeps CometChat's 2 seconds: elsewhere a loaded CI machine's
        /// first TLS handshake must not turn a healthy webhook into a timeout.
        static func make(_ backend: TestBackend, webhookTimeout: Duration = .seconds(15)) async throws -> World {
            let apns = try await APNsStandIn.start()
            let fcm = try await FCMStandIn.start()
            let hms = try await HMSStandIn.start()
            hms.register(appId: "101234567", clientSecret: "hms-client-secret")
            let hook = try await WebhookStandIn()
            let slowHook = try await WebhookStandIn(slow: true)
            let herald = try await TestHerald.make(
                backend,
                allowPrivateWebhooks: true,
                trusting: [apns.certificate, fcm.certificate, hms.certificate, hook.server.certificate, slowHook.server.certificate],
                apns: apns.endpointURL,
                fcm: fcm.url,
                hms: hms.url,
                webhookTimeout: webhookTimeout
            )
            let app = try await herald.makeApp()
            return World(herald: herald, apns: apns, fcm: fcm, hms: hms, hook: hook, slowHook: slowHook, apiKey: app.apiKey)
        }

        func close() async {
            await apns.shutdown()
            await fcm.shutdown()
            await hms.shutdown()
            await hook.server.shutdown()
            await slowHook.server.shutdown()
        }

        func addProviders(_ client: HeraldClient) async throws {
            let key = P256.Signing.PrivateKey()
            apns.trust(keyId: Fixtures.apnsKeyId, publicKey: key.publicKey)
            fcm.trust(
                clientEmail: Fixtures.serviceAccount()["client_email"] as! String,
                publicKey: try _RSA.Signing.PrivateKey(pemRepresentation: Fixtures.rsaKeyPEM).publicKey
            )
            let bodies: [[String: Any]] = [
                [
                    "providerId": "apns-1", "kind": "apns", "auth": "token", "keyId": Fixtures.apnsKeyId, "teamId": "DEF123GHIJ",
                    "bundleId": "com.acme.app", "privateKey": key.pemRepresentation, "mutableContent": true,
                ],
                ["providerId": "fcm-1", "kind": "fcm", "serviceAccount": Fixtures.serviceAccount(), "includeNotificationKey": true],
                [
                    "providerId": "hook-1", "kind": "custom", "url": hook.server.url + "/push",
                    "basicAuth": ["username": "herald", "password": "s3cret"],
                ],
                ["providerId": "hms-1", "kind": "hms", "hmsAppId": "101234567", "clientSecret": "hms-client-secret", "includeNotificationKey": true],
            ]
            for body in bodies {
                let response = try await client.request(.post, "/v1/push/providers", bearer: apiKey, json: body)
                guard response.status == 201 else { throw TestFailure("provider: \(response.text)") }
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func testSendsReachEveryProviderInItsShape(_ backend: TestBackend) async throws {
        let world = try await World.make(backend)
        try await world.herald.run { client in
            try await world.addProviders(client)
            let apnsToken = Fixtures.apnsToken()
            let apns = try await client.request(
                .post,
                "/v1/push/providers/apns-1/test",
                bearer: world.apiKey,
                json: [
                    "pushToken": apnsToken, "platform": "apns_ios_device", "title": "Hello", "body": "From Herald", "data": ["k": "v"],
                ]
            )
            #expect(apns.status == 200, "\(apns.text)")
            #expect(apns["status"] as? String == "delivered")
            #expect(apns["providerStatus"] as? Int == 200)
            #expect(apns["providerMessageId"] != nil)
            #expect(apns["latencyMs"] is Double || apns["latencyMs"] is Int)
            let sent = try #require(world.apns.received.last)
            #expect(sent.path == "/3/device/\(apnsToken)")
            let payload = try JSONValue(jsonBytes: sent.body)
            #expect(payload["aps"]["alert"]["title"].string == "Hello")
            #expect(payload["aps"]["mutable-content"].int == 1)
            #expect(payload["k"].string == "v")

            let fcm = try await client.request(
                .post,
                "/v1/push/providers/fcm-1/test",
                bearer: world.apiKey,
                json: [
                    "pushToken": Fixtures.fcmToken(), "platform": "FCM_ANDROID", "title": "Hello", "body": "From Herald",
                ]
            )
            #expect(fcm["status"] as? String == "delivered", "\(fcm.text)")
            #expect((fcm["providerMessageId"] as? String)?.hasPrefix("projects/acme-chat-app/messages/") == true)
            let message = try #require(world.fcm.lastMessage)
            #expect(message["notification"]["body"].string == "From Herald")
            #expect(message["data"].stringObject?["title"] == "Hello")

            let hook = try await client.request(
                .post,
                "/v1/push/providers/hook-1/test",
                bearer: world.apiKey,
                json: ["uid": "ana", "title": "Hello", "body": "Hook"]
            )
            #expect(hook["status"] as? String == "delivered", "\(hook.text)")
            let request = try #require(world.hook.requests.last)
            #expect(request.method == "POST")
            #expect(request.headers["authorization"] == "Basic " + Data("herald:s3cret".utf8).base64EncodedString())
            let envelope = try JSONValue(jsonBytes: request.body)
            #expect(Set(try #require(envelope.object).keys) == ["trigger", "data", "appId", "region", "webhook"])
            #expect(envelope["trigger"].string == "push-notification-payload-generated")
            #expect(envelope["webhook"].string == "custom")
            #expect(envelope["region"].string == "us")
            let data = envelope["data"]
            try #require(data.object != nil)
            #expect(data["to"]["uid"].string == "ana")
            #expect(data["notificationDetails"]["title"].string == "Hello")

            let hmsToken = Fixtures.hmsToken()
            let hms = try await client.request(
                .post,
                "/v1/push/providers/hms-1/test",
                bearer: world.apiKey,
                json: [
                    "pushToken": hmsToken, "platform": "hms_android", "title": "Hello", "body": "From Herald",
                ]
            )
            #expect(hms["status"] as? String == "delivered", "\(hms.text)")
            #expect(hms["providerStatus"] as? Int == 200)
            let hmsMessage = try #require(world.hms.lastMessage)
            #expect(hmsMessage["token"].strings == [hmsToken])
            #expect(hmsMessage["android"]["notification"]["body"].string == "From Herald")
            let described = try await client.request(.get, "/v1/push/providers/hms-1", bearer: world.apiKey)
            #expect(described["hmsAppId"] as? String == "101234567")
            #expect(!described.text.contains("hms-client-secret"))

            // Wrong platform for the provider, missing token, unknown provider.
            #expect(
                try await client.request(
                    .post,
                    "/v1/push/providers/apns-1/test",
                    bearer: world.apiKey,
                    json: ["pushToken": Fixtures.fcmToken(), "platform": "fcm_android"]
                ).status == 422
            )
            #expect(
                try await client.request(.post, "/v1/push/providers/fcm-1/test", bearer: world.apiKey, json: ["platform": "fcm_android"])
                    .errorDetails?["field"] == "pushToken"
            )
            #expect(
                try await client.request(.post, "/v1/push/providers/nope/test", bearer: world.apiKey, json: ["platform": "fcm_android"]).status == 404
            )
        }
        await world.close()
    }

    @Test(arguments: TestBackend.available)
    func deadTokensArePrunedWithWhyAndWhen(_ backend: TestBackend) async throws {
        let world = try await World.make(backend)
        try await world.herald.run { client in
            try await world.addProviders(client)
            let session = try await client.login("ana", apiKey: world.apiKey)
            let dead = Fixtures.apnsToken()
            let alive = Fixtures.apnsToken()
            let gone = Fixtures.fcmToken()
            let huawei = Fixtures.hmsToken()
            for (token, platform, provider) in [
                (dead, "apns_ios_device", "apns-1"), (alive, "apns_ios_voip", "apns-1"), (gone, "fcm_android", "fcm-1"),
                (huawei, "hms_android", "hms-1"),
            ] {
                try await client.request(
                    .post,
                    "/v1/me/push-tokens",
                    bearer: session,
                    json: ["pushToken": token, "platform": platform, "providerId": provider]
                )
            }
            world.apns.script(deviceToken: dead, .init(status: 410, reason: "Unregistered", timestampMs: 1_700_000_000_000))
            world.fcm.script(token: gone, .unregistered)
            world.hms.script(token: huawei, .invalidToken)

            let results = try await client.request(.post, "/v1/users/ana/push-test", bearer: world.apiKey, json: ["title": "T", "body": "B"])
            let verdicts = try #require(results["data"] as? [[String: Any]])
            #expect(verdicts.count == 5)  // four tokens and the webhook
            let byToken = Dictionary(verdicts.compactMap { v in (v["pushToken"] as? String).map { ($0, v) } }, uniquingKeysWith: { $1 })
            #expect(byToken[dead]?["outcome"] as? String == "token_invalid")
            #expect(byToken[dead]?["reason"] as? String == "Unregistered")
            #expect(byToken[dead]?["pruned"] as? Bool == true)
            #expect(byToken[gone]?["reason"] as? String == "UNREGISTERED")
            #expect(byToken[alive]?["status"] as? String == "delivered")
            #expect(world.apns.received.contains { $0.headers["apns-topic"] == "com.acme.app.voip" && $0.headers["apns-push-type"] == "voip" })
            #expect(verdicts.contains { $0["providerId"] as? String == "hook-1" && $0["status"] as? String == "delivered" })

            let left = (try await client.request(.get, "/v1/users/ana/push-tokens", bearer: world.apiKey)["data"] as? [[String: Any]]) ?? []
            #expect(left.compactMap { $0["pushToken"] as? String } == [alive])
            let pruned = (try await client.request(.get, "/v1/push/pruned-tokens?uid=ana", bearer: world.apiKey)["data"] as? [[String: Any]]) ?? []
            #expect(Set(pruned.compactMap { $0["pushToken"] as? String }) == [dead, gone, huawei])
            #expect(byToken[huawei]?["reason"] as? String == "80300007: the token is invalid")
            #expect(byToken[huawei]?["pruned"] as? Bool == true)
            let unregistered = try #require(pruned.first { $0["pushToken"] as? String == dead })
            #expect(unregistered["reason"] as? String == "Unregistered")
            #expect((unregistered["invalidSince"] as? String)?.hasPrefix("2023-11-14") == true)
            #expect(unregistered["prunedAt"] != nil)

            // BadDeviceToken is pruned too, with the sandbox/production hint.
            let bad = Fixtures.apnsToken()
            try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: session,
                json: ["pushToken": bad, "platform": "apns_ios_device", "providerId": "apns-1"]
            )
            world.apns.script(deviceToken: bad, .init(status: 400, reason: "BadDeviceToken"))
            let verdict = try await client.request(
                .post,
                "/v1/push/providers/apns-1/test",
                bearer: world.apiKey,
                json: ["pushToken": bad, "platform": "apns_ios_device"]
            )
            #expect(verdict["pruned"] as? Bool == true)
            #expect((verdict["hint"] as? String)?.contains("production token sent to the sandbox") == true)
        }
        await world.close()
    }

    @Test func aSlowWebhookIsARetryNotASuccess() async throws {
        let world = try await World.make(.sqlite, webhookTimeout: .seconds(2))
        try await world.herald.run { client in
            for (id, path) in [("warm", "/warm"), ("slow", "/push")] {
                let created = try await client.request(
                    .post,
                    "/v1/push/providers",
                    bearer: world.apiKey,
                    json: ["providerId": id, "kind": "custom", "url": world.slowHook.server.url + path]
                )
                #expect(created.status == 201)
            }
            // A loaded machine's first TLS handshake can take longer than the 2-second limit: open
            // the connection first (the client keeps it), so that the timed send only waits for the answer.
            var warmed = false
            for _ in 0..<10 where !warmed {
                warmed =
                    try await client.request(.post, "/v1/push/providers/warm/test", bearer: world.apiKey, json: ["uid": "ana"])["status"] as? String
                    == "delivered"
            }
            #expect(warmed)
            // The receiver answers 200 after 2.5 s: a client that waited would report `delivered`.
            let verdict = try await client.request(.post, "/v1/push/providers/slow/test", bearer: world.apiKey, json: ["uid": "ana"])
            #expect(verdict["status"] as? String == "failed")
            #expect(verdict["outcome"] as? String == "retry_later")
            #expect((verdict["reason"] as? String)?.hasPrefix("no answer within 2") == true, "\(verdict.text)")
            #expect(world.slowHook.requests.filter { $0.path == "/push" }.count == 1, "\(verdict.text)")
        }
        await world.close()
    }
}
