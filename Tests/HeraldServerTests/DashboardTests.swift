import Foundation
import HTTPTypes
import HeraldCore
import HeraldModels
import HeraldTestSupport
import Synchronization
import Testing

@testable import HeraldServer

/// The dashboard's guarantees, through the in-process router: sign-in, signed cookies, CSRF and
/// origin checks on every form, secrets never shown, bad input answered next to its field with
/// what was typed kept, and everything escaped. (The browser suite drives the same pages in
/// Chromium: `Tests/Browser`.)
@Suite("Dashboard")
struct DashboardTests {
    /// A browser's view of the dashboard: keeps cookies, reads the form token off each page.
    final class Browser: Sendable {
        struct State {
            var cookies: [String: String] = [:]
            var csrf = ""
        }

        let client: HeraldClient
        private let state = Mutex(State())

        var cookies: [String: String] {
            get { state.withLock { $0.cookies } }
            set { state.withLock { $0.cookies = newValue } }
        }

        var csrf: String { state.withLock { $0.csrf } }

        init(_ client: HeraldClient) { self.client = client }

        func get(_ path: String) async throws -> JSONResponse {
            let response = try await client.request(.get, path, headers: headers())
            remember(response)
            return response
        }

        func post(_ path: String, _ fields: [String: String], origin: String? = nil, csrf: String? = nil) async throws -> JSONResponse {
            var fields = fields
            if fields["_csrf"] == nil { fields["_csrf"] = csrf ?? self.csrf }
            var headers = headers()
            headers[.contentType] = "application/x-www-form-urlencoded"
            if let origin { headers[.origin] = origin }
            let body = fields.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")
            let response = try await client.request(.post, path, raw: body, headers: headers)
            remember(response)
            return response
        }

        /// A multipart form with files (`name → (filename, bytes)`).
        func upload(_ path: String, _ fields: [String: String], files: [String: (String, Data)]) async throws -> JSONResponse {
            let boundary = "----herald\(UUID().uuidString)"
            var body = Data()
            for (name, value) in fields.merging(["_csrf": csrf], uniquingKeysWith: { a, _ in a }) {
                body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
            }
            for (name, file) in files {
                body += Data(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(file.0)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                        .utf8
                )
                body += file.1 + Data("\r\n".utf8)
            }
            body += Data("--\(boundary)--\r\n".utf8)
            var headers = headers()
            headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
            let response = try await client.request(.post, path, bytes: [UInt8](body), headers: headers)
            remember(response)
            return response
        }

        func signIn(_ apiKey: String) async throws {
            _ = try await get("/dashboard/login")
            let response = try await post("/dashboard/login", ["apiKey": apiKey])
            guard response.status == 303, cookies["herald_dashboard"] != nil else {
                throw TestFailure("sign-in: \(response.status) \(response.text.prefix(300))")
            }
            _ = try await get("/dashboard")
        }

        private func headers() -> HTTPFields {
            var headers = HTTPFields()
            if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
            return headers
        }

        private func remember(_ response: JSONResponse) {
            state.withLock { state in
                for field in response.headers[values: .setCookie] {
                    let pair = field.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    guard pair.count == 2 else { continue }
                    state.cookies[String(pair[0])] = pair[1].isEmpty ? nil : String(pair[1])
                }
                if let range = response.text.range(of: #"name="_csrf" value="([^"]+)""#, options: .regularExpression) {
                    state.csrf = String(response.text[range].split(separator: "\"")[3])
                }
            }
        }

        static func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
        }
    }

    @Test(arguments: TestBackend.available)
    func signInNeedsAValidKeyAndAFreshFormToken(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp(name: "Acme <Chat>")
        try await herald.run { client in
            let browser = Browser(client)
            let anonymous = try await browser.get("/dashboard/providers")
            #expect(anonymous.status == 303)
            #expect(anonymous.headers[.location]?.hasPrefix("/dashboard/login") == true)

            let login = try await browser.get("/dashboard/login")
            #expect(login.status == 200)
            #expect(login.text.contains(#"<label for="apiKey">"#))
            let cookie = login.headers[values: .setCookie].first { $0.hasPrefix("herald_dashboard_login=") } ?? ""
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))

            // A form token that is not the one this browser was given.
            #expect(try await browser.post("/dashboard/login", ["apiKey": app.apiKey], csrf: "forged").status == 403)
            _ = try await browser.get("/dashboard/login")
            let wrong = try await browser.post("/dashboard/login", ["apiKey": "hk_not_a_key"])
            #expect(wrong.status == 401)
            #expect(wrong.text.contains("That API key is not valid."))
            #expect(browser.cookies["herald_dashboard"] == nil)

            _ = try await browser.get("/dashboard/login")
            let signedIn = try await browser.post("/dashboard/login", ["apiKey": app.apiKey])
            #expect(signedIn.status == 303)
            let session = signedIn.headers[values: .setCookie].first { $0.hasPrefix("herald_dashboard=") } ?? ""
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Strict") && session.contains("Path=/dashboard"))
            #expect(!session.contains(app.apiKey))
            let overview = try await browser.get("/dashboard")
            #expect(overview.status == 200)
            #expect(overview.text.contains("Acme &lt;Chat&gt;"))
            #expect(overview.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)

            // Sign-out needs the form token too, then the cookie is gone.
            #expect(try await browser.post("/dashboard/logout", [:], csrf: "forged").status == 403)
            #expect(try await browser.post("/dashboard/logout", [:]).status == 303)
            #expect(try await browser.get("/dashboard").status == 303)
        }
    }

    @Test(arguments: TestBackend.available)
    func aTamperedCookieOrARevokedKeyEndsTheSession(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let browser = Browser(client)
            try await browser.signIn(app.apiKey)
            let original = browser.cookies["herald_dashboard"]!
            // Another app's id in the payload, the old signature.
            let parts = original.split(separator: ".")
            let payload = String(decoding: Base64URL.decode(parts[0])!, as: UTF8.self).replacingOccurrences(of: app.appId, with: "someoneelse00000")
            browser.cookies["herald_dashboard"] = Base64URL.encode(Data(payload.utf8)) + "." + parts[1]
            #expect(try await browser.get("/dashboard").status == 303)
            browser.cookies["herald_dashboard"] = original
            #expect(try await browser.get("/dashboard").status == 200)
            try await herald.services.apps.revokeKey(appId: app.appId, keyId: app.keyId)
            #expect(try await browser.get("/dashboard").status == 303)
        }
    }

    @Test(arguments: TestBackend.available)
    func formsNeedTheSessionsTokenAndComeFromHere(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let browser = Browser(client)
            try await browser.signIn(app.apiKey)
            _ = try await browser.get("/dashboard/settings")
            let fields = [
                "enabled": "on", "multiDevicePolicy": "any_offline", "payloadFormat": "cometchat", "maxTokensPerUser": "7", "onlineGraceSeconds": "5",
            ]
            let forged = try await browser.post("/dashboard/settings", fields, csrf: "forged")
            #expect(forged.status == 403)
            #expect(forged.text.contains("did not come from this dashboard"))
            #expect(try await browser.post("/dashboard/settings", fields, origin: "https://evil.example").status == 403)
            #expect(try await herald.services.apps.settings(appId: app.appId).maxTokensPerUser == 20)

            #expect(try await browser.post("/dashboard/settings", fields).status == 303)
            let settings = try await herald.services.apps.settings(appId: app.appId)
            #expect(settings.maxTokensPerUser == 7)
            #expect(settings.multiDevicePolicy == .anyOffline)
            #expect(!settings.badge)

            // Refused: the message next to its field, and what was typed kept.
            var bad = fields
            bad["customJSON"] = "{\"team\": \"support\",}"
            bad["maxTokensPerUser"] = "9"
            let refused = try await browser.post("/dashboard/settings", bad)
            #expect(refused.status == 422)
            #expect(refused.text.contains(#"id="customJSON-error""#))
            #expect(refused.text.contains("line 1, column"))
            #expect(refused.text.contains("{&quot;team&quot;: &quot;support&quot;,}"))
            #expect(refused.text.contains(#"value="9""#))
            #expect(try await herald.services.apps.settings(appId: app.appId).maxTokensPerUser == 7)
        }
    }

    @Test(arguments: TestBackend.available)
    func providerFormsTakeUploadsRefuseBadInputAndNeverShowSecrets(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let browser = Browser(client)
            try await browser.signIn(app.apiKey)
            _ = try await browser.get("/dashboard/providers/new?kind=fcm")
            // Bad JSON, pasted: refused at the field, kept.
            let pasted = try await browser.upload(
                "/dashboard/providers",
                ["kind": "fcm", "providerId": "fcm-1", "enabled": "on", "serviceAccount": "{\"type\": service_account}"],
                files: [:]
            )
            #expect(pasted.status == 422)
            #expect(pasted.text.contains(#"id="serviceAccount-error""#))
            #expect(pasted.text.contains("not valid JSON"))
            #expect(pasted.text.contains("{&quot;type&quot;: service_account}"))
            // The service-account file, uploaded.
            let account = try JSONSerialization.data(withJSONObject: Fixtures.serviceAccount())
            let uploaded = try await browser.upload(
                "/dashboard/providers",
                ["kind": "fcm", "providerId": "fcm-1", "enabled": "on"],
                files: ["serviceAccountFile": ("service-account.json", account)]
            )
            #expect(uploaded.status == 303, "\(uploaded.text.prefix(500))")
            #expect(try await herald.services.providers.get(appId: app.appId, providerId: "fcm-1").config.settings.fcm?.projectId == "acme-chat-app")

            // APNs: an RSA key where the .p8 (P-256) goes is refused at the key.
            let wrongKey = try await browser.upload(
                "/dashboard/providers",
                [
                    "kind": "apns", "providerId": "apns-1", "auth": "token", "keyId": Fixtures.apnsKeyId,
                    "teamId": "DEF123GHIJ", "bundleId": "com.acme.app",
                ],
                files: ["privateKeyFile": ("AuthKey.p8", Data(Fixtures.rsaKeyPEM.utf8))]
            )
            #expect(wrongKey.status == 422)
            #expect(wrongKey.text.contains(#"id="privateKey-error""#))
            #expect(wrongKey.text.contains("value=\"\(Fixtures.apnsKeyId)\""))
            let p8 = Fixtures.apnsSigningKeyPEM()
            #expect(
                try await browser.upload(
                    "/dashboard/providers",
                    [
                        "kind": "apns", "providerId": "apns-1", "auth": "token", "keyId": Fixtures.apnsKeyId,
                        "teamId": "DEF123GHIJ", "bundleId": "com.acme.app", "production": "on",
                    ],
                    files: ["privateKeyFile": ("AuthKey.p8", Data(p8.utf8))]
                ).status == 303
            )
            // An expired certificate is refused at the .p12.
            let expired = try await browser.upload(
                "/dashboard/providers",
                [
                    "kind": "apns", "providerId": "apns-old", "auth": "certificate",
                    "bundleId": "com.acme.app", "password": Fixtures.p12Password,
                ],
                files: ["p12File": ("old.p12", Data(base64Encoded: try Fixtures.p12("apns-expired"))!)]
            )
            #expect(expired.status == 422)
            #expect(expired.text.contains(#"id="p12-error""#))
            #expect(expired.text.contains("expired"))

            // A webhook over http is refused at the URL, which is kept.
            let http = try await browser.upload(
                "/dashboard/providers",
                [
                    "kind": "custom", "providerId": "hook", "url": "http://hooks.example.com/push",
                    "basicAuthUsername": "herald", "basicAuthPassword": "s3cret-pass",
                ],
                files: [:]
            )
            #expect(http.status == 422)
            #expect(http.text.contains(#"id="url-error""#))
            #expect(http.text.contains(#"value="http://hooks.example.com/push""#))
            #expect(!http.text.contains("s3cret-pass"))

            // No page shows a secret: not the key, not the service account's private key.
            let privateKey = Fixtures.serviceAccount()["private_key"] as! String
            for path in ["/dashboard/providers", "/dashboard/providers/fcm-1", "/dashboard/providers/apns-1"] {
                let page = try await browser.get(path)
                #expect(page.status == 200)
                #expect(!page.text.contains("PRIVATE KEY"), "\(path) shows a private key")
                #expect(!page.text.contains(String(privateKey.dropFirst(40).prefix(40))))
            }
            #expect(try await browser.get("/dashboard/providers").text.contains("acme-chat-app"))

            // Editing: the toggles change, the key left empty is kept; then delete.
            let before = try await herald.services.providers.get(appId: app.appId, providerId: "apns-1")
            _ = try await browser.get("/dashboard/providers/apns-1")
            let edited = try await browser.upload(
                "/dashboard/providers/apns-1",
                [
                    "kind": "apns", "auth": "token", "keyId": Fixtures.apnsKeyId, "teamId": "DEF123GHIJ",
                    "bundleId": "com.acme.app", "enabled": "on", "mutableContent": "on",
                ],
                files: [:]
            )
            #expect(edited.status == 303, "\(edited.text.prefix(400))")
            let after = try await herald.services.providers.get(appId: app.appId, providerId: "apns-1")
            #expect(after.config.settings.apns?.production == false && after.config.settings.apns?.mutableContent == true)
            #expect(try herald.services.providers.secret(of: after).privateKeyPEM == herald.services.providers.secret(of: before).privateKeyPEM)
            #expect(try await browser.post("/dashboard/providers/apns-1/delete", [:]).status == 303)
            await #expect(throws: HeraldError.self) { try await herald.services.providers.get(appId: app.appId, providerId: "apns-1") }

            // Web Push: a subject that is not mailto:/https: is refused at the field; Herald makes
            // the key pair and shows only its public half; the list names the Matrix app ids.
            let badSubject = try await browser.upload(
                "/dashboard/providers",
                ["kind": "webpush", "providerId": "web-1", "enabled": "on", "subject": "push@acme.test"],
                files: [:]
            )
            #expect(badSubject.status == 422 && badSubject.text.contains(#"id="subject-error""#))
            let web = try await browser.upload(
                "/dashboard/providers",
                ["kind": "webpush", "providerId": "web-1", "enabled": "on", "subject": "mailto:push@acme.test"],
                files: [:]
            )
            #expect(web.status == 303, "\(web.text.prefix(400))")
            let created = try await herald.services.providers.get(appId: app.appId, providerId: "web-1")
            let publicKey = try #require(created.config.settings.webPush?.publicKey)
            let edit = try await browser.get("/dashboard/providers/web-1")
            let vapidKey = try herald.services.providers.secret(of: created).vapidPrivateKey ?? "-"
            #expect(edit.text.contains(publicKey) && !edit.text.contains(vapidKey))
            _ = try await herald.services.matrixAppIds.put(appId: app.appId, pattern: "im.vector.app.web*", .init(providerId: "web-1"))
            let list = try await browser.get("/dashboard/providers")
            #expect(
                list.text.contains("Matrix app ids") && list.text.contains("im.vector.app.web*")
                    && list.text.contains("Web Push (browsers, UnifiedPush)")
            )
        }
    }

    @Test(arguments: TestBackend.available)
    func pagesEscapeWhatUsersStored(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            _ = try await client.request(.put, "/v1/users/mallory", bearer: app.apiKey, json: ["name": "<script>alert(1)</script>"])
            let browser = Browser(client)
            try await browser.signIn(app.apiKey)
            let found = try await browser.get("/dashboard/users?q=MALL")
            #expect(found.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(!found.text.contains("<script>alert"))
            #expect(found.text.contains(#"href="/dashboard/users/mallory""#))
            let page = try await browser.get("/dashboard/users/mallory")
            #expect(page.status == 200)
            #expect(!page.text.contains("<script>alert"))
            #expect(try await browser.get("/dashboard/users/nobody").status == 404)
        }
    }

    /// A session is one app's: another app's providers, events and campaigns are not found.
    @Test(arguments: TestBackend.available)
    func oneAppsSessionSeesNothingOfAnother(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let mine = try await herald.makeApp(name: "Mine")
        let theirs = try await herald.makeApp(name: "Theirs")
        try await herald.run { client in
            _ = try await client.request(
                .post,
                "/v1/push/providers",
                bearer: theirs.apiKey,
                json: [
                    "providerId": "their-fcm", "kind": "fcm", "serviceAccount": Fixtures.serviceAccount(projectId: "their-project"),
                ]
            )
            _ = try await client.request(.put, "/v1/users/zed", bearer: theirs.apiKey, json: ["name": "Zed Theirs"])
            let posted = try await client.request(
                .post,
                "/v1/events",
                bearer: theirs.apiKey,
                json: [
                    "type": "message", "message": ["id": 1, "text": "Hi", "sender": "zed", "receiver": "zed", "receiverType": "user"],
                ]
            )
            let eventId = try #require((posted["eventIds"] as? [String])?.first)
            let campaign = try await client.request(
                .post,
                "/v1/campaigns",
                bearer: theirs.apiKey,
                json: [
                    "name": "Theirs", "audience": ["type": "all"],
                    "card": ["version": "1.0", "fallbackText": "Hi", "body": [["type": "text", "id": "t", "content": "Hi"]]],
                ]
            )
            let campaignId = try #require(campaign["id"] as? String, "\(campaign.text)")

            let browser = Browser(client)
            try await browser.signIn(mine.apiKey)
            for path in [
                "/dashboard/providers/their-fcm", "/dashboard/events/\(eventId)", "/dashboard/campaigns/\(campaignId)", "/dashboard/users/zed",
            ] {
                let page = try await browser.get(path)
                #expect(page.status == 404, "\(path): \(page.status)")
            }
            for path in ["/dashboard/providers", "/dashboard/users?q=zed", "/dashboard/events", "/dashboard/feed", "/dashboard"] {
                let page = try await browser.get(path)
                #expect(page.status == 200)
                #expect(
                    !page.text.contains("their-") && !page.text.contains("Zed Theirs") && !page.text.contains(eventId),
                    "\(path) shows the other app's data"
                )
            }
            #expect(try await browser.post("/dashboard/campaigns/\(campaignId)/cancel", [:]).status == 404)
            #expect(try await herald.services.campaigns.get(appId: theirs.appId, id: campaignId).status == .draft)
        }
    }

    @Test func absentValuesReachTheTemplatesAsNothing() {
        let none: String? = nil
        let context = DashboardContext.normalized([
            "error": none as Any, "empty": "", "kept": "x",
            "rows": [["status": Optional<Int>.none as Any, "code": Optional(200) as Any]],
        ])
        #expect(context["error"] is NSNull && context["empty"] is NSNull && context["kept"] as? String == "x")
        let row = try? #require((context["rows"] as? [[String: Any]])?.first)
        #expect(row?["status"] is NSNull && row?["code"] as? Int == 200)
    }

    @Test(arguments: TestBackend.available)
    func pagesShowNoFalseAlarmsAndEveryRowLinksSomewhere(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let browser = Browser(client)
                // A fresh sign-in page: nothing typed, nothing wrong.
                let login = try await browser.get("/dashboard/login")
                #expect(!login.text.contains("role=\"alert\"") && !login.text.contains("aria-invalid"), "\(login.text)")
                #expect(login.text.range(of: #"\bnil\b"#, options: .regularExpression) == nil)
                try await browser.signIn(world.apiKey)

                // Healthy providers are not "set aside".
                for path in ["/dashboard/providers", "/dashboard/providers/apns-1", "/dashboard/providers/fcm-1"] {
                    let page = try await browser.get(path)
                    #expect(page.status == 200)
                    #expect(!page.text.contains("Set aside") && !page.text.contains("set aside:") && !page.text.contains("role=\"alert\""), "\(path)")
                    #expect(page.text.range(of: #"\bnil\b"#, options: .regularExpression) == nil, "\(path) shows nil")
                }

                // A skipped delivery shows no stray "HTTP"; an event that reached nobody says why.
                let (_, token) = try await world.device(client, "ana", "apns_ios_device")
                _ = token
                let skipped = try await world.post(client, EngineWorld.message(from: "bo", to: "zed"))[0]
                // A card with a push to Ana, sent on its own and by a campaign: its deliveries link to them.
                #expect(
                    try await client.request(.post, "/v1/feed/categories", bearer: world.apiKey, json: ["id": "promo", "label": "Promotions"]).status
                        == 201
                )
                let card: [String: Any] = ["version": "1.0", "fallbackText": "Hi", "body": [["type": "text", "id": "t", "content": "Hi"]]]
                #expect(
                    try await client.request(
                        .post,
                        "/v1/feed/templates",
                        bearer: world.apiKey,
                        json: ["id": "offer", "name": "Offer", "categoryId": "promo", "card": card]
                    ).status == 201
                )
                let item = try await client.request(
                    .post,
                    "/v1/feed/items",
                    bearer: world.apiKey,
                    json: ["uids": ["ana"], "card": card, "push": ["title": "Hi", "body": "There"]]
                )
                #expect(item.status < 300, "\(item.text)")
                let campaign = try await client.request(
                    .post,
                    "/v1/campaigns",
                    bearer: world.apiKey,
                    json: [
                        "name": "Spring", "audience": ["type": "uids", "uids": ["ana"]], "templateId": "offer",
                        "push": ["title": "Spring", "body": "Sale"],
                    ]
                )
                let campaignId = try #require(campaign["id"] as? String, "\(campaign.text)")
                #expect(try await client.request(.post, "/v1/campaigns/\(campaignId)/send", bearer: world.apiKey).status < 300)
                try await world.herald.services.campaigns.runDue()
                try await world.drain()

                let events = try await browser.get("/dashboard/events")
                #expect(!events.text.contains("HTTP </span>"), "a row without a status shows HTTP")
                #expect(events.text.contains("/dashboard/events/\(skipped)"))
                #expect(!events.text.contains("/dashboard/events/fit_"), "feed item rows link to a page that does not exist")
                #expect(events.text.contains("/dashboard/campaigns/\(campaignId)") && events.text.contains("campaign push"))
                #expect(events.text.contains("feed item push") && events.text.contains("/dashboard/users/ana"))
                let itemId = try #require(events.text.firstMatch(of: /(fit_[A-Za-z0-9_-]+)/).map { String($0.1) })
                let old = try await browser.get("/dashboard/events/\(itemId)")
                #expect(old.status == 303 && old.headers[.location]?.hasPrefix("/dashboard/") == true, "\(old.status)")
                let nobody = try await browser.get("/dashboard/events/\(skipped)")
                #expect(nobody.text.contains("unknown_user"), "the event page does not say why nobody was reached")
                #expect(nobody.text.range(of: #"\bnil\b"#, options: .regularExpression) == nil)

                // A card template's category is not followed by a stray separator.
                let feed = try await browser.get("/dashboard/feed")
                #expect(feed.text.contains("Promotions") || feed.text.contains("promo"))
                #expect(!feed.text.contains("· </li>") && !feed.text.contains("·</li>"), "a trailing separator after a category")
            }
        }
    }
}
