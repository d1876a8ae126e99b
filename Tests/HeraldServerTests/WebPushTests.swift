import Foundation
import HeraldModels
import HeraldTestSupport
import NIOCore
import Testing

/// Web Push (RFC 8030/8291/8292) and UnifiedPush end to end, on both back-ends: a `webpush`
/// provider with a generated VAPID key, a browser's subscription, and a stand-in push service that
/// records what arrives. What Herald sends is opened by an independent implementation — PyPI's
/// `http_ece` decrypts it and `py_vapid` verifies the VAPID header — not by Herald's own code.
@Suite("Web Push and UnifiedPush")
struct WebPushTests {
    @Test(arguments: TestBackend.available)
    func aBrowserGetsEachAlertSealedToItsKeysAndSignedWithVAPID(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let publicKey = try await Self.addProvider(client, world)
                let (session, iPhone) = try await world.device(client, "bo", "apns_ios_device")
                let keys = Fixtures.webPushKeys()
                let endpoint = world.hook.url + "/wpush/v2/bo-browser"

                // A subscription without its keys, or with a token beside it, is refused naming the field.
                let keyless = try await client.request(
                    .post,
                    "/v1/me/push-tokens",
                    bearer: session,
                    json: ["platform": "web_push", "providerId": "web-1", "pushToken": endpoint]
                )
                #expect(keyless.status == 422 && keyless.errorDetails?["field"] == "subscription.keys", "\(keyless.text)")
                let subscription: [String: Any] = [
                    "endpoint": endpoint, "expirationTime": NSNull(), "keys": ["p256dh": keys.p256dh, "auth": keys.auth],
                ]
                let both = try await client.request(
                    .post,
                    "/v1/me/push-tokens",
                    bearer: session,
                    json: ["platform": "web_push", "providerId": "web-1", "pushToken": endpoint, "subscription": subscription]
                )
                #expect(both.status == 422 && both.errorDetails?["field"] == "pushToken", "\(both.text)")
                let notHTTPS = try await client.request(
                    .post,
                    "/v1/me/push-tokens",
                    bearer: session,
                    json: [
                        "platform": "web_push", "providerId": "web-1",
                        "subscription": ["endpoint": "http://push.example/x", "keys": subscription["keys"]!],
                    ]
                )
                #expect(notHTTPS.status == 422 && notHTTPS.errorDetails?["field"] == "subscription.endpoint", "\(notHTTPS.text)")
                let registered = try await client.request(
                    .post,
                    "/v1/me/push-tokens",
                    bearer: session,
                    json: ["platform": "web_push", "providerId": "web-1", "subscription": subscription]
                )
                #expect(registered.status == 200, "\(registered.text)")
                #expect(registered.body["token"]["pushToken"].string == endpoint && registered.body["token"]["tokenKind"].string == "web_push")
                #expect(registered.body["token"]["encrypted"].bool == true && !registered.text.contains(keys.auth))

                let before = Date()
                try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "meet at the old mill", id: 7))
                try await world.drain()
                let sent = world.hook.requests.filter { $0.path == "/wpush/v2/bo-browser" }
                #expect(sent.count == 1)
                let request = try #require(sent.first)
                #expect(request.method == "POST")
                #expect(request.headers["content-encoding"] == "aes128gcm")
                #expect(request.headers["urgency"] == "normal")
                #expect(Int(request.headers["ttl"] ?? "") ?? 0 > 0)
                let topic = try #require(request.headers["topic"])
                #expect(topic.count == 32 && topic.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
                let authorization = try #require(request.headers["authorization"])
                #expect(authorization.hasPrefix("vapid t=") && authorization.hasSuffix(",k=\(publicKey)"))
                #expect(!String(decoding: request.body, as: UTF8.self).contains("old mill"), "only ciphertext travels")

                let opened = try #require(try Self.openIndependently([(request, keys)]).first)
                #expect(opened["vapidValid"].bool == true, "py_vapid verifies the header: \(opened)")
                #expect(opened["claims"]["aud"].string == world.hook.url)
                #expect(opened["claims"]["sub"].string == "mailto:push@acme.test")
                let expiry = Date(timeIntervalSince1970: opened["claims"]["exp"].double ?? 0)
                #expect(expiry > before && expiry <= Date().addingTimeInterval(24 * 3_600))
                let payload = JSONValue.parsing(Array((opened["plaintext"].string ?? "").utf8))
                #expect(payload["body"].string == "meet at the old mill" && payload["title"].string?.isEmpty == false)
                #expect(payload["tag"].string == "ana_user_bo" && payload["renotify"].bool == true)
                #expect(payload["data"]["conversationId"].string == "ana_user_bo", "the same details FCM's data carries")

                // A retract is silent: the iPhone gets it, the browser (which must show every push) does not.
                let apnsBefore = world.apnsUserInfos(to: iPhone).count
                var delete = EngineWorld.message(from: "ana", to: "bo", id: 7)
                delete["action"] = "deleted"
                try await world.post(client, delete)
                try await world.drain()
                #expect(world.apnsUserInfos(to: iPhone).count == apnsBefore + 1)
                #expect(world.hook.requests.filter { $0.path == "/wpush/v2/bo-browser" }.count == 1)

                // The push service says the subscription is gone: it is pruned, with why.
                world.hook.script([StandInResponse(status: 410, json: "{}")])
                let ids = try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "still there?", id: 8))
                try await world.drain()
                let tokens = try await client.request(.get, "/v1/me/push-tokens", bearer: session)
                #expect(!tokens.text.contains(endpoint), "\(tokens.text)")
                let row = try await world.deliveries(client, ids[0]).first { ($0["target"] as? String) == endpoint }
                #expect(row?["status"] as? String != "delivered" && row?["providerStatus"] as? Int == 410, "\(String(describing: row))")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func aUnifiedPushEndpointGetsAlertsAndSilentNoticesWithOrWithoutKeys(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                _ = try await Self.addProvider(client, world)
                let session = try await client.login("bo", apiKey: world.apiKey)
                let plain = world.hook.url + "/up/plain"
                let sealed = world.hook.url + "/up/sealed"
                let keys = Fixtures.webPushKeys()
                for body: [String: Any] in [
                    ["platform": "unifiedpush", "providerId": "web-1", "pushToken": plain],
                    [
                        "platform": "unifiedpush", "providerId": "web-1", "pushToken": sealed,
                        "encryption": ["p256dh": keys.p256dh, "auth": keys.auth],
                    ],
                ] {
                    let registered = try await client.request(.post, "/v1/me/push-tokens", bearer: session, json: body)
                    #expect(registered.status == 200 && registered.body["token"]["tokenKind"].string == "unifiedpush", "\(registered.text)")
                }
                try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "ping", id: 21))
                try await world.drain()
                var delete = EngineWorld.message(from: "ana", to: "bo", id: 21)
                delete["action"] = "deleted"
                try await world.post(client, delete)
                try await world.drain()

                // Without keys the distributor gets the JSON itself; the alert, then the retract.
                let plainSent = world.hook.requests.filter { $0.path == "/up/plain" }
                #expect(plainSent.count == 2)
                #expect(plainSent.allSatisfy { $0.headers["content-encoding"] == nil && $0.headers["content-type"] == "application/json" })
                let alert = JSONValue.parsing(Array(plainSent[0].body))
                #expect(alert["body"].string == "ping", "\(String(decoding: plainSent[0].body, as: UTF8.self))")
                let retract = JSONValue.parsing(Array(plainSent[1].body))
                #expect(retract["data"]["type"].string == "retract" && retract["data"]["messageId"].string == "21" && retract["title"] == .null)

                // With keys, the same two, sealed.
                let sealedSent = world.hook.requests.filter { $0.path == "/up/sealed" }
                #expect(sealedSent.count == 2 && sealedSent.allSatisfy { $0.headers["content-encoding"] == "aes128gcm" })
                let opened = try Self.openIndependently(sealedSent.map { ($0, keys) })
                if !opened.isEmpty {
                    #expect(JSONValue.parsing(Array((opened[0]["plaintext"].string ?? "").utf8))["body"].string == "ping")
                    #expect(JSONValue.parsing(Array((opened[1]["plaintext"].string ?? "").utf8))["data"]["type"].string == "retract")
                }
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func theProviderKeepsItsKeySecretAndTakesAnImportedOne(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let bad = try await client.request(
                    .post,
                    "/v1/push/providers",
                    bearer: world.apiKey,
                    json: ["providerId": "web-1", "kind": "webpush", "subject": "push@acme.test"]
                )
                #expect(bad.status == 422 && bad.errorDetails?["field"] == "subject", "\(bad.text)")
                // py_vapid's and web-push's raw form: the 32-byte scalar in base64url.
                let imported = Fixtures.webPushKeys()
                let created = try await client.request(
                    .post,
                    "/v1/push/providers",
                    bearer: world.apiKey,
                    json: ["providerId": "web-1", "kind": "webpush", "subject": "https://acme.test/contact", "vapidPrivateKey": imported.privateKey]
                )
                #expect(created.status == 201, "\(created.text)")
                #expect(created.body["vapidPublicKey"].string == imported.p256dh, "the public key of the imported private key")
                #expect(!created.text.contains(imported.privateKey))
                let wrong = try await client.request(
                    .patch,
                    "/v1/push/providers/web-1",
                    bearer: world.apiKey,
                    json: ["vapidPrivateKey": "not a key"]
                )
                #expect(wrong.status == 422 && wrong.errorDetails?["field"] == "vapidPrivateKey", "\(wrong.text)")
                let foreign = try await client.request(.patch, "/v1/push/providers/apns-1", bearer: world.apiKey, json: ["subject": "mailto:a@b.c"])
                #expect(foreign.status == 422 && foreign.errorDetails?["field"] == "subject", "\(foreign.text)")
                // A change that gives no key keeps it.
                let renamed = try await client.request(
                    .patch,
                    "/v1/push/providers/web-1",
                    bearer: world.apiKey,
                    json: ["subject": "mailto:ops@acme.test"]
                )
                #expect(renamed.status == 200 && renamed.body["vapidPublicKey"].string == imported.p256dh, "\(renamed.text)")
            }
        }
    }

    // MARK: Helpers

    /// Adds `web-1` (generated key); returns its public key after checking it is a P-256 point.
    static func addProvider(_ client: HeraldClient, _ world: EngineWorld) async throws -> String {
        let created = try await client.request(
            .post,
            "/v1/push/providers",
            bearer: world.apiKey,
            json: ["providerId": "web-1", "kind": "webpush", "subject": "mailto:push@acme.test"]
        )
        guard created.status == 201, let publicKey = created.body["vapidPublicKey"].string else { throw TestFailure("provider: \(created.text)") }
        let raw = try #require(Base64URL.decode(publicKey))
        #expect(raw.count == 65 && raw.first == 0x04)
        #expect(!created.text.lowercased().contains("privatekey"), "the private key is never returned")
        return publicKey
    }

    /// Decrypts each request's body with `http_ece` and verifies its VAPID header with `py_vapid`;
    /// `[{plaintext, vapidValid, claims}]`. Empty when the Python packages are missing outside CI
    /// (CI installs them, so there a missing package fails the test).
    static func openIndependently(_ items: [(StandInRequest, (p256dh: String, auth: String, privateKey: String))]) throws -> [JSONValue] {
        let available = (try? HeraldProcess.runTool("/usr/bin/env", ["python3", "-c", "import http_ece, py_vapid"])) == 0
        guard available else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw TestFailure("python3 with http_ece and py_vapid is needed") }
            return []
        }
        let folder = TestScratch.path("herald-webpush")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let job = items.map { request, keys in
            [
                "body": request.body.base64EncodedString(), "privateKey": keys.privateKey, "auth": keys.auth,
                "authorization": request.headers["authorization"] ?? "",
            ]
        }
        try JSONSerialization.data(withJSONObject: job).write(to: folder.appendingPathComponent("job.json"))
        try Self.script.write(to: folder.appendingPathComponent("open.py"), atomically: true, encoding: .utf8)
        let (status, output) = try HeraldProcess.runCapturing(
            "/usr/bin/env",
            ["python3", folder.appendingPathComponent("open.py").path, folder.appendingPathComponent("job.json").path]
        )
        guard status == 0, case .array(let opened) = JSONValue.parsing(Array(output.utf8)) else { throw TestFailure("open.py: \(output)") }
        return opened
    }

    static let script = """
        import base64, json, sys
        import http_ece, py_vapid
        from cryptography.hazmat.primitives.asymmetric import ec

        def b64(text):
            return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

        out = []
        for item in json.load(open(sys.argv[1])):
            key = ec.derive_private_key(int.from_bytes(b64(item["privateKey"]), "big"), ec.SECP256R1())
            plaintext = http_ece.decrypt(base64.b64decode(item["body"]), private_key=key, auth_secret=b64(item["auth"]), version="aes128gcm")
            authorization = item["authorization"]
            valid, claims = False, {}
            if authorization:
                valid = bool(py_vapid.Vapid02.verify(authorization))
                token = dict(part.split("=", 1) for part in authorization.split(" ", 1)[1].split(","))["t"]
                claims = json.loads(b64(token.split(".")[1]))
            out.append({"plaintext": plaintext.decode("utf-8"), "vapidValid": valid, "claims": claims})
        print(json.dumps(out))
        """
}
