import Foundation
import HTTPTypes
import HeraldCore
import HeraldModels
import HeraldServer
import HeraldTestSupport
import NIOConcurrencyHelpers
import Testing

/// Hostile callers: another app's key or another user's token on every route of the contract,
/// secrets looked for where they must not be, webhook targets that turn internal, oversized and
/// deeply nested bodies, and one credential sending too fast.
@Suite("Security probes")
struct SecurityProbeTests {
    /// Every operation of the served contract, as (method, path template).
    static func operations(_ spec: String) -> [(HTTPRequest.Method, String)] {
        var operations: [(HTTPRequest.Method, String)] = []
        var path: String?
        for line in spec.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let path,
                let method = ["get", "put", "post", "patch", "delete"].first(where: { line == "    \($0):" })
            {
                operations.append((HTTPRequest.Method(rawValue: method.uppercased())!, path))
            } else if !line.hasPrefix(" "), !line.isEmpty {
                path = nil
            }
        }
        return operations
    }

    /// App B's resources are named with markers that must never reach app A; Bob's own with one
    /// that must never reach Carol, his neighbour in app B.
    static let appMarker = "ZQ7APPB"
    static let bobMarker = "ZQ7BOB"

    @Test(arguments: TestBackend.available)
    func everyRouteKeepsOtherAppsAndOtherUsersOut(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend, allowPrivateWebhooks: true, engineWorkers: false)
        let a = try await herald.makeApp(name: "A")
        let b = try await herald.makeApp(name: "B")
        try await herald.run { client in
            // App B: Bob (a session, a token, a feed item, a campaign for him alone), Carol, a group,
            // providers, feed set-up, templates, an event.
            try await client.addStandardProviders(apiKey: b.apiKey)
            #expect(
                try await client.request(
                    .put,
                    "/v1/users/bob",
                    bearer: b.apiKey,
                    json: ["name": "Bob \(Self.bobMarker)", "metadata": ["note": Self.bobMarker]]
                ).status == 200
            )
            let bobSession = try await client.request(
                .post,
                "/v1/users/bob/sessions",
                bearer: b.apiKey,
                json: ["deviceName": "Phone \(Self.bobMarker)"]
            )
            let bob = try #require(bobSession["authToken"] as? String)
            let bobSessionId = try #require(bobSession["sessionId"] as? String)
            let bobPushToken = Fixtures.fcmToken()
            #expect(
                try await client.request(
                    .post,
                    "/v1/me/push-tokens",
                    bearer: bob,
                    json: ["pushToken": bobPushToken, "platform": "fcm_android", "providerId": "fcm-1"]
                ).status == 200
            )
            let carol = try await client.login("carol", apiKey: b.apiKey)
            #expect(try await client.request(.put, "/v1/groups/room", bearer: b.apiKey, json: ["name": "Room \(Self.appMarker)"]).status == 200)
            #expect(try await client.request(.post, "/v1/groups/room/members", bearer: b.apiKey, json: ["uids": ["bob", "carol"]]).status == 200)
            #expect(
                try await client.request(.post, "/v1/feed/channels", bearer: b.apiKey, json: ["id": "news", "name": "News \(Self.appMarker)"]).status
                    == 201
            )
            #expect(
                try await client.request(.post, "/v1/feed/categories", bearer: b.apiKey, json: ["id": "promo", "label": "Promo \(Self.appMarker)"])
                    .status == 201
            )
            let card: [String: Any] = [
                "version": "1.0", "fallbackText": "For Bob \(Self.bobMarker)",
                "body": [["type": "text", "id": "t", "content": "For Bob \(Self.bobMarker)"]],
            ]
            #expect(
                try await client.request(
                    .post,
                    "/v1/feed/templates",
                    bearer: b.apiKey,
                    json: ["id": "offer", "name": "Offer \(Self.appMarker)", "card": card]
                ).status == 201
            )
            let items = try await client.request(.post, "/v1/feed/items", bearer: b.apiKey, json: ["uids": ["bob"], "card": card])
            let bobItem = try #require((items["items"] as? [[String: Any]])?.first?["id"] as? String)
            let campaign = try await client.request(
                .post,
                "/v1/campaigns",
                bearer: b.apiKey,
                json: ["name": "Campaign \(Self.appMarker)", "audience": ["type": "uids", "uids": ["bob"]], "card": card]
            )
            let campaignId = try #require(campaign["id"] as? String, "\(campaign.text)")
            #expect(
                try await client.request(
                    .put,
                    "/v1/push/templates/message/user/en",
                    bearer: b.apiKey,
                    json: ["title": "T \(Self.appMarker)", "body": "{{message.text}}"]
                ).status == 200
            )
            let event = try await client.request(
                .post,
                "/v1/events",
                bearer: b.apiKey,
                json: [
                    "type": "message",
                    "message": ["id": 1, "text": "Hi \(Self.bobMarker)", "sender": "carol", "receiver": "bob", "receiverType": "user"],
                ]
            )
            let eventId = try #require((event["eventIds"] as? [String])?.first, "\(event.text)")
            #expect(try await client.request(.put, "/v1/me/mutes/group_room", bearer: bob, json: ["until": "2099-01-01T00:00:00Z"]).status < 300)

            // What B looks like, through B's own eyes.
            let views: [(String, String)] = [
                ("/v1/users/bob", b.apiKey), ("/v1/users/bob/push-tokens", b.apiKey), ("/v1/users/bob/sessions", b.apiKey),
                ("/v1/users/bob/preferences", b.apiKey), ("/v1/groups/room", b.apiKey), ("/v1/groups/room/members", b.apiKey),
                ("/v1/push/providers", b.apiKey), ("/v1/push/settings", b.apiKey), ("/v1/push/templates", b.apiKey),
                ("/v1/feed/channels", b.apiKey), ("/v1/feed/categories", b.apiKey), ("/v1/feed/templates", b.apiKey),
                ("/v1/campaigns/\(campaignId)", b.apiKey), ("/v1/events/\(eventId)", b.apiKey),
                ("/v1/me/feed", bob), ("/v1/me/preferences", bob), ("/v1/me/push-tokens", bob), ("/v1/me/feed/unread-count", bob),
            ]
            func snapshot() async throws -> [String] {
                var texts: [String] = []
                for (path, bearer) in views { texts.append(try await client.request(.get, path, bearer: bearer).text) }
                return texts
            }
            let before = try await snapshot()
            #expect(before.allSatisfy { !$0.contains("\"error\"") }, "\(before.filter { $0.contains("\"error\"") })")

            // Every route, with B's identifiers, called by A's admin, by a user of A, and by Carol.
            let alice = try await client.login("alice", apiKey: a.apiKey)
            let spec = try await client.request(.get, "/openapi.yaml").text
            let operations = Self.operations(spec)
            #expect(operations.count > 70, "the contract was not read: \(operations.count) operations")
            func fill(_ template: String) -> String {
                var path = template
                let id =
                    template.hasPrefix("/v1/feed/channels")
                    ? "news"
                    : template.hasPrefix("/v1/feed/categories")
                        ? "promo"
                        : template.hasPrefix("/v1/feed/templates") ? "offer" : template.hasPrefix("/v1/campaigns") ? campaignId : bobItem
                for (name, value) in [
                    "uid": "bob", "guid": "room", "providerId": "fcm-1", "sessionId": bobSessionId, "eventId": eventId,
                    "eventType": "message", "receiverType": "user", "locale": "en", "conversationId": "group_room",
                    "pushToken": bobPushToken, "pushNotificationId": bobItem, "id": id,
                ] {
                    path = path.replacingOccurrences(of: "{\(name)}", with: value)
                }
                return path
            }
            let bodies: [String: Any] = [
                "POST /v1/groups/{guid}/members": ["uids": ["bob"]],
                "POST /v1/realtime/messages": ["uids": ["bob"], "sessionIds": [bobSessionId], "data": ["x": 1]],
                "PATCH /v1/push/providers/{providerId}": ["enabled": false],
                "POST /v1/users/{uid}/push-test": ["title": "t", "body": "b"],
                "POST /v1/push/providers/{providerId}/test": ["uid": "bob", "title": "t", "body": "b"],
                "POST /v1/feed/items": ["uids": ["bob"], "templateId": "offer"],
                "POST /v1/campaigns": ["name": "x", "audience": ["type": "uids", "uids": ["bob"]], "templateId": "offer"],
                "PUT /v1/campaigns/{id}": ["name": "x", "audience": ["type": "all"], "templateId": "offer"],
                "POST /v1/me/feed/{id}/engagements": ["interaction": "clicked"],
            ]
            var calls = 0
            // Deleting routes last, so that what they would remove is still there for the others to probe.
            let ordered = operations.filter { $0.0 != .delete } + operations.filter { $0.0 == .delete }
            for (caller, bearer, marker) in [
                ("app A", a.apiKey, Self.appMarker), ("a user of A", alice, Self.appMarker), ("Carol", carol, Self.bobMarker),
            ] {
                for (method, template) in ordered where !["/health", "/ready"].contains(template) {
                    let response = try await client.request(
                        method,
                        fill(template),
                        bearer: bearer,
                        json: [.post, .put, .patch].contains(method) ? (bodies["\(method.rawValue) \(template)"] ?? [String: Any]()) : nil
                    )
                    calls += 1
                    #expect(response.status < 500, "\(caller) \(method) \(template): \(response.status) \(response.text.prefix(300))")
                    #expect(
                        !response.text.contains(marker) && !response.text.contains(Self.bobMarker),
                        "\(caller) \(method) \(template) saw another tenant's data: \(response.text.prefix(300))"
                    )
                    if caller == "Carol", template.hasPrefix("/v1/me/feed/{id}") || template.hasPrefix("/v1/me/push-notifications") {
                        #expect(response.status == 404, "Carol reached Bob's feed item: \(method) \(template) \(response.status)")
                    }
                }
            }
            #expect(calls > 200)

            // …and B is as it was.
            let after = try await snapshot()
            for (index, (path, _)) in views.enumerated() {
                #expect(before[index] == after[index], "\(path) changed:\n\(before[index].prefix(400))\n→\n\(after[index].prefix(400))")
            }
        }
    }

    @Test func secretsAreNeitherAnsweredNorLoggedNorStoredInClear() async throws {
        let folder = TestScratch.path("herald-secrets")
        let masterKey = String(repeating: "5e", count: 32)
        let environment = [
            "HERALD_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("herald.sqlite").path, "HERALD_SECRET_KEY": masterKey,
            "HERALD_LOG_LEVEL": "trace", "HERALD_WEBHOOK_ALLOW_PRIVATE": "1",
        ]
        let created = try HeraldProcess.run(["apps", "create", "--name", "Secrets", "--json"], environment: environment)
        let apiKey = try #require(try JSONValue(jsonText: created)["apiKey"].string)
        let process = try await HeraldProcess.start(environment: environment)
        defer { process.kill(SIGTERM) }
        let http = HTTPTestClient.shared
        var answers: [String] = []
        func call(_ method: HTTPMethodName, _ path: String, bearer: String? = nil, _ body: Any? = nil) async throws -> JSONResponse {
            let response = try await http.request(.init(rawValue: method.rawValue), process.url + path, bearer: bearer ?? apiKey, json: body)
            answers.append(response.text)
            return response
        }

        let apnsKey = Fixtures.apnsSigningKeyPEM()
        let serviceAccount = Fixtures.serviceAccount()
        let webhookPassword = "webhook-pa55-\(UUID().uuidString)"
        let hmsSecret = "hms-secret-\(UUID().uuidString)"
        #expect(
            try await call(
                .POST,
                "/v1/push/providers",
                [
                    "providerId": "apns-1", "kind": "apns", "auth": "token", "keyId": Fixtures.apnsKeyId, "teamId": "DEF123GHIJ",
                    "bundleId": "com.acme.app", "privateKey": apnsKey,
                ]
            ).status == 201
        )
        #expect(try await call(.POST, "/v1/push/providers", ["providerId": "fcm-1", "kind": "fcm", "serviceAccount": serviceAccount]).status == 201)
        #expect(
            try await call(.POST, "/v1/push/providers", ["providerId": "hms-1", "kind": "hms", "hmsAppId": "101234567", "clientSecret": hmsSecret])
                .status == 201
        )
        #expect(
            try await call(
                .POST,
                "/v1/push/providers",
                [
                    "providerId": "hook-1", "kind": "custom", "url": "https://127.0.0.1:9/push",
                    "basicAuth": ["username": "herald", "password": webhookPassword],
                ]
            ).status == 201
        )
        _ = try await call(.PUT, "/v1/users/ana", ["name": "Ana"])
        let session = try await call(.POST, "/v1/users/ana/sessions", [String: Any]())
        let authToken = try #require(session["authToken"] as? String)
        _ = try await call(.GET, "/v1/me", bearer: authToken)
        for provider in ["apns-1", "fcm-1", "hms-1", "hook-1"] {
            _ = try await call(.GET, "/v1/push/providers/\(provider)")
            _ = try await call(.PATCH, "/v1/push/providers/\(provider)", ["enabled": true])
        }
        _ = try await call(.GET, "/v1/push/providers")
        // A send through each provider: their clients open the secrets and fail (no such endpoints).
        for provider in ["hook-1", "hms-1"] {
            _ = try await call(.POST, "/v1/push/providers/\(provider)/test", ["uid": "ana", "title": "t", "body": "b"])
        }
        process.kill(SIGTERM)

        let fcmKey = try #require(serviceAccount["private_key"] as? String)
        // The distinctive middle of each PEM: its base64 lines.
        func keyMaterial(_ pem: String) -> [String] {
            pem.split(separator: "\n").filter { !$0.hasPrefix("-----") && $0.count >= 40 }.map(String.init)
        }
        let secrets: [(String, String)] =
            [
                ("API key", apiKey), ("auth token", authToken), ("webhook password", webhookPassword),
                ("HMS client secret", hmsSecret), ("master key", masterKey),
            ]
            + keyMaterial(apnsKey).prefix(2).map { ("APNs key", $0) } + keyMaterial(fcmKey).prefix(2).map { ("FCM key", $0) }
        let log = process.logText
        #expect(log.count > 1_000, "the trace log is nearly empty: nothing was tested")
        var stored = Data()
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasPrefix("herald.sqlite") {
            stored.append(try Data(contentsOf: folder.appendingPathComponent(file)))
        }
        #expect(stored.count > 10_000)
        let storedText = String(decoding: stored, as: UTF8.self)
        for (name, secret) in secrets {
            #expect(!answers.contains { $0.contains(secret) } || name == "auth token" || name == "API key", "the \(name) came back in a response")
            #expect(!log.contains(secret), "the \(name) is in the log")
            #expect(!storedText.contains(secret), "the \(name) is in the database file in clear")
        }
        // The auth token is answered once, when its session is created, and never again.
        #expect(answers.filter { $0.contains(authToken) }.count == 1)
        #expect(!answers.contains { $0.contains(apiKey) })
    }

    /// A resolver whose answers a test changes, as a hostile DNS server would between the check
    /// at save time and the connection.
    final class ScriptedResolver: HostResolver {
        let answer = NIOLockedValueBox<[String]>(["93.184.216.34"])
        func addresses(of host: String) async throws -> [String] { answer.withLockedValue { $0 } }
    }

    @Test(arguments: TestBackend.available)
    func webhookTargetsAreCheckedWhenConnectingAndRedirectsAreNotFollowed(_ backend: TestBackend) async throws {
        let hook = try await WebhookStandIn()
        let elsewhere = try await WebhookStandIn()
        defer {
            Task {
                await hook.shutdown()
                await elsewhere.shutdown()
            }
        }
        let resolver = ScriptedResolver()
        let port = try #require(URLComponents(string: hook.url)?.port)

        // Saved while the name resolves to a public address; by the time of the send it answers loopback.
        let strict = try await TestHerald.make(backend, trusting: [hook.server.certificate], hostResolver: resolver)
        let app = try await strict.makeApp()
        try await strict.run { client in
            _ = try await client.login("ana", apiKey: app.apiKey)
            let saved = try await client.request(
                .post,
                "/v1/push/providers",
                bearer: app.apiKey,
                json: [
                    "providerId": "hook", "kind": "custom", "url": "https://hooks.example.test:\(port)/push",
                ]
            )
            #expect(saved.status == 201, "\(saved.text)")
            for address in ["127.0.0.1", "10.1.2.3", "169.254.169.254", "::1", "fd00::7"] {
                resolver.answer.withLockedValue { $0 = ["93.184.216.34", address] }
                let sent = try await client.request(
                    .post,
                    "/v1/push/providers/hook/test",
                    bearer: app.apiKey,
                    json: ["uid": "ana", "title": "t", "body": "b"]
                )
                #expect(sent["status"] as? String != "delivered", "\(sent.text)")
                #expect((sent["reason"] as? String ?? sent.text).contains(address), "\(sent.text)")
            }
            // Saving it again is refused outright.
            let patched = try await client.request(
                .patch,
                "/v1/push/providers/hook",
                bearer: app.apiKey,
                json: ["url": "https://hooks.example.test:\(port)/v2"]
            )
            #expect(patched.status == 422, "\(patched.text)")
        }
        #expect(hook.requests.isEmpty, "Herald connected to an internal address: \(hook.requests.map(\.path))")

        // A webhook that answers with a redirect does not move Herald elsewhere.
        let open = try await TestHerald.make(backend, allowPrivateWebhooks: true, trusting: [hook.server.certificate, elsewhere.server.certificate])
        let other = try await open.makeApp()
        try await open.run { client in
            _ = try await client.login("ana", apiKey: other.apiKey)
            #expect(
                try await client.request(
                    .post,
                    "/v1/push/providers",
                    bearer: other.apiKey,
                    json: [
                        "providerId": "hook", "kind": "custom", "url": hook.url + "/push",
                    ]
                ).status == 201
            )
            hook.script([StandInResponse(status: 307, headers: ["location": elsewhere.url + "/internal"])])
            let sent = try await client.request(
                .post,
                "/v1/push/providers/hook/test",
                bearer: other.apiKey,
                json: ["uid": "ana", "title": "t", "body": "b"]
            )
            #expect(sent["status"] as? String != "delivered", "\(sent.text)")
            #expect(hook.requests.count == 1)
            #expect(elsewhere.requests.isEmpty, "the redirect was followed")
        }
    }

    @Test(arguments: TestBackend.available)
    func oversizedAndDeeplyNestedBodiesAreRefused(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend, maxBodyBytes: 64 * 1024)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let large = try await client.request(
                .post,
                "/v1/events",
                bearer: app.apiKey,
                raw: "{\"events\":[" + String(repeating: "{},", count: 30_000) + "{}]}"
            )
            #expect(large.status == 413)
            #expect(large.errorCode == "payload_too_large")
            #expect(large.errorDetails?["limit"] == String(64 * 1024))

            // Nesting far past any real payload, inside the size limit: refused, and the server stays up.
            for depth in [600, 20_000] {
                let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                let objects =
                    "{\"type\":\"message\",\"message\":" + String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
                    + "}"
                for nestedBody in [arrays, objects] {
                    let nested = try await client.request(.post, "/v1/events", bearer: app.apiKey, raw: nestedBody)
                    #expect([400, 413, 422].contains(nested.status), "depth \(depth): \(nested.status) \(nested.text.prefix(200))")
                    #expect(nested.errorCode != nil)
                }
                let metadata = try await client.request(
                    .put,
                    "/v1/users/ana",
                    bearer: app.apiKey,
                    raw: "{\"name\":\"Ana\",\"metadata\":" + String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
                        + "}"
                )
                #expect([400, 413, 422].contains(metadata.status), "metadata depth \(depth): \(metadata.status) \(metadata.text.prefix(200))")
            }
            #expect(
                try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, json: ["name": "Ana", "metadata": ["a": ["b": ["c": 1]]]]).status
                    == 200
            )
        }
    }

    @Test(arguments: TestBackend.available)
    func eachCredentialIsRateLimitedWithRetryAfter(_ backend: TestBackend) async throws {
        // Slow refills (one request every 4 s) so that a loaded machine cannot refill a bucket
        // between two requests of the test.
        var limits = RateLimits()
        limits.apiKey = .init(rate: 0.25, burst: 10)
        limits.userToken = .init(rate: 0.25, burst: 4)
        let herald = try await TestHerald.make(backend, rateLimits: limits)
        let app = try await herald.makeApp()
        let second = try await herald.services.apps.rotateKey(appId: app.appId)
        try await herald.run { client in
            for _ in 0..<10 { #expect(try await client.request(.get, "/v1/push/settings", bearer: app.apiKey).status == 200) }
            let limited = try await client.request(.get, "/v1/push/settings", bearer: app.apiKey)
            #expect(limited.status == 429)
            #expect(limited.errorCode == "too_many_requests")
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap(Int.init))
            #expect((1...4).contains(retryAfter))
            #expect(limited.errorDetails?["retryAfterSeconds"] == String(retryAfter))
            // Per key: the app's other key, and the users, are not held back by it.
            #expect(try await client.request(.get, "/v1/push/settings", bearer: second.apiKey).status == 200)
            let token = try await client.login("ana", apiKey: second.apiKey)
            for _ in 0..<4 { #expect(try await client.request(.get, "/v1/me", bearer: token).status == 200) }
            #expect(try await client.request(.get, "/v1/me", bearer: token).status == 429)
            // Requests without credentials are not counted against anyone, and the probes answer
            // whatever credential they carry.
            #expect(try await client.request(.get, "/health").status == 200)
            #expect(try await client.request(.get, "/ready", bearer: token).status == 200)
            #expect(try await client.request(.get, "/health", bearer: token).status == 200)
            #expect(try await client.request(.get, "/v1/me", bearer: token).status == 429)
            // After Retry-After the key works again.
            try await Task.sleep(for: .milliseconds(retryAfter * 1_000 + 100))
            #expect(try await client.request(.get, "/v1/push/settings", bearer: app.apiKey).status == 200)
        }
    }
}
