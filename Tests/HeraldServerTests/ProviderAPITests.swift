import Foundation
import HTTPTypes
import HeraldTestSupport
import SQLKit
import Testing

@testable import HeraldStorage

@Suite("Provider credentials")
struct ProviderAPITests {
    static func apnsTokenBody(_ pem: String, id: String = "apns-1") -> [String: Any] {
        [
            "providerId": id, "kind": "apns", "auth": "token", "keyId": Fixtures.apnsKeyId, "teamId": "DEF123GHIJ",
            "bundleId": "com.acme.app", "privateKey": pem, "production": false, "contentAvailable": false, "mutableContent": true,
        ]
    }

    @Test(arguments: TestBackend.available)
    func secretsAreNeverReturnedNorStoredInClear(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend, allowPrivateWebhooks: true)
        let app = try await herald.makeApp()
        let pem = Fixtures.apnsSigningKeyPEM()
        let p12 = try Fixtures.p12("apns-valid")
        let webhookPassword = "webhook-pass-\(UUID().uuidString)"
        let certPassword = Fixtures.p12Password
        let hmsSecret = "hms-secret-\(UUID().uuidString)"
        try await herald.run { client in
            let bodies: [[String: Any]] = [
                ["providerId": "fcm-1", "kind": "fcm", "serviceAccount": Fixtures.serviceAccount(), "includeNotificationKey": true],
                Self.apnsTokenBody(pem),
                [
                    "providerId": "apns-cert", "kind": "apns", "auth": "certificate", "p12": p12, "password": certPassword,
                    "bundleId": "com.acme.app", "production": true,
                ],
                [
                    "providerId": "hook-1", "kind": "custom", "url": "https://127.0.0.1:9443/push", "enabled": true,
                    "basicAuth": ["username": "u", "password": webhookPassword],
                ],
                ["providerId": "hms-1", "kind": "hms", "hmsAppId": "101234567", "clientSecret": hmsSecret],
            ]
            var texts: [String] = []
            for body in bodies {
                let created = try await client.request(.post, "/v1/push/providers", bearer: app.apiKey, json: body)
                #expect(created.status == 201, "\(created.text)")
                texts.append(created.text)
                texts.append(try await client.request(.get, "/v1/push/providers/\(body["providerId"]!)", bearer: app.apiKey).text)
            }
            let list = try await client.request(.get, "/v1/push/providers", bearer: app.apiKey)
            #expect((list["data"] as? [Any])?.count == 5)
            texts.append(list.text)

            let all = texts.joined()
            for secret in [
                "PRIVATE KEY", "MII", p12.prefix(40).description, webhookPassword, certPassword, hmsSecret, "\"privateKey\"", "\"password\"",
                "clientSecret",
            ] {
                #expect(!all.contains(secret), "a response contains \(secret)")
            }
            // Safe facts instead of secrets.
            let fcm = try await client.request(.get, "/v1/push/providers/fcm-1", bearer: app.apiKey)
            #expect(fcm["projectId"] as? String == "acme-chat-app")
            #expect(fcm["clientEmail"] as? String == "firebase-adminsdk@acme-chat-app.iam.gserviceaccount.com")
            #expect(fcm["includeNotificationKey"] as? Bool == true)
            let apns = try await client.request(.get, "/v1/push/providers/apns-1", bearer: app.apiKey)
            #expect(apns["keyId"] as? String == Fixtures.apnsKeyId)
            #expect(apns["teamId"] as? String == "DEF123GHIJ")
            #expect(apns["bundleId"] as? String == "com.acme.app")
            #expect(apns["mutableContent"] as? Bool == true)
            let cert = try await client.request(.get, "/v1/push/providers/apns-cert", bearer: app.apiKey)
            let certificate = try cert.decode(CertificateProvider.self).certificate
            #expect(certificate.subject.contains("Apple Push Services: com.acme.app"))
            #expect(certificate.expiresAt.hasPrefix("2099-01-01"))
            let hook = try await client.request(.get, "/v1/push/providers/hook-1", bearer: app.apiKey)
            #expect(hook.body["basicAuth"]["username"].string == "u")
            let hms = try await client.request(.get, "/v1/push/providers/hms-1", bearer: app.apiKey)
            #expect(hms["kind"] as? String == "hms" && hms["hmsAppId"] as? String == "101234567")
        }

        // Nothing secret is readable in the database itself.
        let stored = try await Self.storedText(herald)
        for secret in [
            pem.split(separator: "\n")[1].description, "BEGIN PRIVATE KEY", webhookPassword, hmsSecret, String(p12.prefix(60)),
            Fixtures.rsaKeyPEM.split(separator: "\n")[1].description,
        ] {
            #expect(!stored.contains(secret), "the database holds \(secret.prefix(20))… in clear")
        }
        #expect(stored.contains(Fixtures.apnsKeyId))  // the non-secret facts are there, so the scan read the right rows
    }

    /// Everything the providers table holds for this test's app (SQLite: the whole file and its WAL).
    static func storedText(_ herald: TestHerald) async throws -> String {
        switch herald.databaseURL {
        case .sqlite(let path):
            let store = herald.services.store
            try? await store.shutdown()  // checkpoint the WAL into the file
            return [path, path + "-wal"].compactMap { FileManager.default.contents(atPath: $0) }
                .map { String(decoding: $0, as: UTF8.self) }.joined()
        case .postgres:
            let store = try await SQLStore.open(herald.databaseURL)  // the test's own store is closed by now
            let providers = try await store.providersRaw()
            try await store.shutdown()
            return providers.joined(separator: "\n")
        }
    }

    @Test(arguments: TestBackend.available)
    func credentialsAreValidated(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        let expired = try Fixtures.p12("apns-expired")
        let valid = try Fixtures.p12("apns-valid")
        let modern = try Fixtures.p12("apns-modern")
        let rsaAsP8 = Fixtures.rsaKeyPEM
        try await herald.run { client in
            var noType = Fixtures.serviceAccount()
            noType["type"] = "authorized_user"
            var badKey = Fixtures.serviceAccount()
            badKey["private_key"] = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
            var noProject = Fixtures.serviceAccount()
            noProject.removeValue(forKey: "project_id")
            let cases: [(body: [String: Any], field: String)] = [
                (["providerId": "f", "kind": "fcm", "serviceAccount": noType], "serviceAccount.type"),
                (["providerId": "f", "kind": "fcm", "serviceAccount": badKey], "serviceAccount.private_key"),
                (["providerId": "f", "kind": "fcm", "serviceAccount": noProject], "serviceAccount.project_id"),
                (Self.apnsTokenBody(rsaAsP8), "privateKey"),
                (Self.apnsTokenBody("not a key"), "privateKey"),
                (Self.apnsTokenBody(Fixtures.apnsSigningKeyPEM()).merging(["keyId": "short"]) { $1 }, "keyId"),
                (Self.apnsTokenBody(Fixtures.apnsSigningKeyPEM()).merging(["bundleId": "nodots"]) { $1 }, "bundleId"),
                (
                    [
                        "providerId": "c", "kind": "apns", "auth": "certificate", "p12": expired, "password": Fixtures.p12Password,
                        "bundleId": "com.acme.app",
                    ], "p12"
                ),
                (["providerId": "c", "kind": "apns", "auth": "certificate", "p12": valid, "password": "wrong", "bundleId": "com.acme.app"], "p12"),
                (
                    ["providerId": "c", "kind": "apns", "auth": "certificate", "p12": "bm90IGEgcDEy", "password": "x", "bundleId": "com.acme.app"],
                    "p12"
                ),
                (["providerId": "c", "kind": "apns", "auth": "certificate", "bundleId": "com.acme.app"], "p12"),
                (["providerId": "bad id!", "kind": "fcm", "serviceAccount": Fixtures.serviceAccount()], "providerId"),
                (["providerId": "x", "kind": "custom", "url": "ftp://example.com/"], "url"),
                (["providerId": "h", "kind": "hms", "hmsAppId": "app-one", "clientSecret": "hms-client-secret"], "hmsAppId"),
                (["providerId": "h", "kind": "hms", "hmsAppId": "101234567"], "clientSecret"),
                (["providerId": "h", "kind": "hms", "hmsAppId": "101234567", "clientSecret": "short"], "clientSecret"),
            ]
            for (body, field) in cases {
                let response = try await client.request(.post, "/v1/push/providers", bearer: app.apiKey, json: body)
                #expect(response.status == 422, "\(field): \(response.text)")
                #expect(response.errorDetails?["field"] == field, "\(field): \(response.text)")
            }
            let expiredResponse = try await client.request(.post, "/v1/push/providers", bearer: app.apiKey, json: cases[7].body)
            #expect(expiredResponse.errorMessage?.contains("expired") == true)

            // An unknown kind is refused, and so is a field of another kind.
            let unknown = try await client.request(.post, "/v1/push/providers", bearer: app.apiKey, json: ["providerId": "h", "kind": "mipush"])
            #expect(unknown.status == 422)
            let modernCert = try await client.request(
                .post,
                "/v1/push/providers",
                bearer: app.apiKey,
                json: [
                    "providerId": "c2", "kind": "apns", "auth": "certificate", "p12": modern, "password": Fixtures.p12Password,
                    "bundleId": "com.acme.app",
                ]
            )
            #expect(modernCert.status == 201, "\(modernCert.text)")

            // Duplicate ids conflict.
            let body = Self.apnsTokenBody(Fixtures.apnsSigningKeyPEM())
            #expect(try await client.request(.post, "/v1/push/providers", bearer: app.apiKey, json: body).status == 201)
            let duplicate = try await client.request(.post, "/v1/push/providers", bearer: app.apiKey, json: body)
            #expect(duplicate.status == 409)
            #expect(duplicate.errorCode == "provider_exists")
        }
    }

    @Test(arguments: TestBackend.available)
    func patchChangesTogglesAndReplacesSecrets(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            try await client.addStandardProviders(apiKey: app.apiKey)
            let patched = try await client.request(
                .patch,
                "/v1/push/providers/apns-1",
                bearer: app.apiKey,
                json: ["production": true, "contentAvailable": true]
            )
            #expect(patched.status == 200)
            #expect(patched["production"] as? Bool == true)
            #expect(patched["contentAvailable"] as? Bool == true)
            #expect(patched["keyId"] as? String == Fixtures.apnsKeyId)

            let kind = try await client.request(.patch, "/v1/push/providers/apns-1", bearer: app.apiKey, json: ["kind": "fcm"])
            #expect(kind.status == 422)
            let foreign = try await client.request(.patch, "/v1/push/providers/fcm-1", bearer: app.apiKey, json: ["bundleId": "com.acme.app"])
            #expect(foreign.status == 422)
            #expect(foreign.errorDetails?["field"] == "bundleId")
            let hmsOnly = try await client.request(.patch, "/v1/push/providers/fcm-1", bearer: app.apiKey, json: ["hmsAppId": "101234567"])
            #expect(hmsOnly.errorDetails?["field"] == "hmsAppId" && hmsOnly.status == 422)
            // includeNotificationKey belongs to FCM and HMS; a new client secret replaces the sealed one.
            let hms = try await client.request(
                .patch,
                "/v1/push/providers/hms-1",
                bearer: app.apiKey,
                json: ["includeNotificationKey": true, "clientSecret": "a-new-client-secret"]
            )
            #expect(hms.status == 200 && hms["includeNotificationKey"] as? Bool == true, "\(hms.text)")
            let hmsCredential = try await herald.services.providers.get(appId: app.appId, providerId: "hms-1")
            #expect(try herald.services.providers.secret(of: hmsCredential).hmsClientSecret == "a-new-client-secret")

            // Switching to certificate auth needs the certificate, and drops the key's facts.
            let noCert = try await client.request(.patch, "/v1/push/providers/apns-1", bearer: app.apiKey, json: ["auth": "certificate"])
            #expect(noCert.status == 422)
            let switched = try await client.request(
                .patch,
                "/v1/push/providers/apns-1",
                bearer: app.apiKey,
                json: [
                    "auth": "certificate", "p12": try Fixtures.p12("apns-valid"), "password": Fixtures.p12Password,
                ]
            )
            #expect(switched.status == 200, "\(switched.text)")
            #expect(switched["keyId"] == nil)
            #expect(switched["certificate"] != nil)

            let newProject = try await client.request(
                .patch,
                "/v1/push/providers/fcm-1",
                bearer: app.apiKey,
                json: [
                    "serviceAccount": Fixtures.serviceAccount(projectId: "second-project")
                ]
            )
            #expect(newProject["projectId"] as? String == "second-project")
            let credential = try await herald.services.providers.get(appId: app.appId, providerId: "fcm-1")
            let secret = try herald.services.providers.secret(of: credential)
            #expect(secret.serviceAccountJSON?.contains("second-project") == true)
        }
    }

    @Test(arguments: TestBackend.available)
    func webhookURLsOnInternalNetworksNeedTheOperatorFlag(_ backend: TestBackend) async throws {
        let strict = try await TestHerald.make(backend)
        let app = try await strict.makeApp()
        let internalURLs = [
            "https://127.0.0.1/hook", "https://localhost:8443/hook", "https://10.0.0.5/hook", "https://192.168.1.20/hook",
            "https://169.254.169.254/latest", "https://[::1]/hook", "https://[fd00::1]/hook", "https://172.20.1.1/hook",
        ]
        try await strict.run { client in
            for url in internalURLs {
                let response = try await client.request(
                    .post,
                    "/v1/push/providers",
                    bearer: app.apiKey,
                    json: ["providerId": "hook", "kind": "custom", "url": url]
                )
                #expect(response.status == 422, "\(url) was accepted")
                #expect(response.errorDetails?["field"] == "url")
            }
            let plain = try await client.request(
                .post,
                "/v1/push/providers",
                bearer: app.apiKey,
                json: ["providerId": "hook", "kind": "custom", "url": "http://93.184.216.34/hook"]
            )
            #expect(plain.status == 422)
            let publicIP = try await client.request(
                .post,
                "/v1/push/providers",
                bearer: app.apiKey,
                json: ["providerId": "hook", "kind": "custom", "url": "https://93.184.216.34/hook"]
            )
            #expect(publicIP.status == 201)
            let patch = try await client.request(.patch, "/v1/push/providers/hook", bearer: app.apiKey, json: ["url": "https://127.0.0.1/hook"])
            #expect(patch.status == 422)
        }

        let open = try await TestHerald.make(backend, allowPrivateWebhooks: true)
        let openApp = try await open.makeApp()
        try await open.run { client in
            for (index, url) in internalURLs.enumerated() {
                let response = try await client.request(
                    .post,
                    "/v1/push/providers",
                    bearer: openApp.apiKey,
                    json: ["providerId": "hook-\(index)", "kind": "custom", "url": url]
                )
                #expect(response.status == 201, "\(url): \(response.text)")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func deletingAProviderInUseNeedsForce(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            try await client.addStandardProviders(apiKey: app.apiKey)
            let session = try await client.login("ana", apiKey: app.apiKey)
            try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: session,
                json: ["pushToken": Fixtures.fcmToken(), "platform": "fcm_android", "providerId": "fcm-1"]
            )
            try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: session,
                json: ["pushToken": Fixtures.apnsToken(), "platform": "apns_ios_device", "providerId": "apns-1"]
            )

            let refused = try await client.request(.delete, "/v1/push/providers/fcm-1", bearer: app.apiKey)
            #expect(refused.status == 409)
            #expect(refused.errorCode == "provider_in_use")
            #expect(refused.errorDetails?["tokens"] == "1")
            #expect(try await client.request(.get, "/v1/push/providers/fcm-1", bearer: app.apiKey).status == 200)

            #expect(try await client.request(.delete, "/v1/push/providers/fcm-1?force=true", bearer: app.apiKey).status == 204)
            #expect(try await client.request(.get, "/v1/push/providers/fcm-1", bearer: app.apiKey).status == 404)
            let left = (try await client.request(.get, "/v1/me/push-tokens", bearer: session)["data"] as? [[String: Any]]) ?? []
            #expect(left.compactMap { $0["providerId"] as? String } == ["apns-1"])
            #expect(try await client.request(.delete, "/v1/push/providers/fcm-1", bearer: app.apiKey).status == 404)
        }
    }

    /// An APNs certificate provider as `GET /v1/push/providers/{id}` describes it: what was read
    /// from its .p12.
    struct CertificateProvider: Decodable {
        struct Certificate: Decodable {
            let subject: String
            let expiresAt: String
        }

        let certificate: Certificate
    }
}

extension SQLStore {
    /// Every stored provider row as text (config and sealed secret), for the at-rest check.
    func providersRaw() async throws -> [String] {
        try await lookup { db in
            try await db.raw("SELECT config, secret FROM providers").rows().map { row in
                try row.decode(column: "config", as: String.self) + "\n" + row.decode(column: "secret", as: String.self)
            }
        }
    }
}
