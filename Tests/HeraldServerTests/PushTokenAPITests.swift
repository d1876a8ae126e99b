import Foundation
import HTTPTypes
import HeraldModels
import HeraldTestSupport
import Testing

@Suite("Push-token registry")
struct PushTokenAPITests {
    static func token(for platform: PushPlatform) -> String {
        switch platform.tokenKind {
        case .fcm: Fixtures.fcmToken()
        case .hms: Fixtures.hmsToken()
        case .apnsDevice, .apnsVoIP: Fixtures.apnsToken()
        case .webPush, .unifiedPush: Fixtures.webPushEndpoint()
        }
    }

    static func provider(for platform: PushPlatform) -> String {
        platform.tokenKind.providerKind.rawValue + "-1"
    }

    @Test(arguments: TestBackend.available)
    func everyPlatformValueAndAliasRegisters(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            try await client.addStandardProviders(apiKey: app.apiKey)
            let web = try await client.request(
                .post,
                "/v1/push/providers",
                bearer: app.apiKey,
                json: ["providerId": "webpush-1", "kind": "webpush", "subject": "mailto:push@acme.test"]
            )
            #expect(web.status == 201, "\(web.text)")
            try await client.request(.patch, "/v1/push/settings", bearer: app.apiKey, json: ["maxTokensPerUser": 100])
            let session = try await client.login("ana", apiKey: app.apiKey)
            for platform in PushPlatform.allCases {
                let constant = platform.rawValue.uppercased().replacingOccurrences(of: "_IOS", with: "_iOS")
                for spelling in [platform.rawValue, constant] {
                    var body: [String: Any] = [
                        "pushToken": Self.token(for: platform), "platform": spelling, "providerId": Self.provider(for: platform),
                    ]
                    if platform == .webPush {
                        let keys = Fixtures.webPushKeys()
                        body["encryption"] = ["p256dh": keys.p256dh, "auth": keys.auth]
                    }
                    let response = try await client.request(.post, "/v1/me/push-tokens", bearer: session, json: body)
                    #expect(response.status == 200, "\(spelling): \(response.text)")
                    let token = response.body["token"]
                    #expect(token["platform"].string == platform.rawValue)
                    #expect(token["tokenKind"].string == platform.tokenKind.rawValue)
                }
            }
            let listed = try await client.request(.get, "/v1/me/push-tokens", bearer: session)
            #expect((listed["data"] as? [Any])?.count == PushPlatform.allCases.count * 2)
        }
    }

    @Test(arguments: TestBackend.available)
    func mismatchesAndMalformedTokensAre422NamingTheField(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            try await client.addStandardProviders(apiKey: app.apiKey)
            let session = try await client.login("ana", apiKey: app.apiKey)
            let cases: [(body: [String: Any], field: String)] = [
                (["pushToken": Fixtures.fcmToken(), "platform": "fcm_android", "providerId": "apns-1"], "providerId"),
                (["pushToken": Fixtures.apnsToken(), "platform": "apns_ios_voip", "providerId": "fcm-1"], "providerId"),
                (["pushToken": Fixtures.apnsToken(), "platform": "apns_ios_device", "providerId": "nope"], "providerId"),
                (["pushToken": Fixtures.fcmToken(), "platform": "windows_phone", "providerId": "fcm-1"], "platform"),
                (["pushToken": "not hex at all, nope", "platform": "apns_ios_device", "providerId": "apns-1"], "pushToken"),
                (["pushToken": "abc", "platform": "fcm_web", "providerId": "fcm-1"], "pushToken"),
                (["pushToken": "token with spaces in it, which FCM never issues", "platform": "fcm_web", "providerId": "fcm-1"], "pushToken"),
                (["platform": "fcm_web", "providerId": "fcm-1"], "pushToken"),
                // The body's shape, read as the schema says.
                (["pushToken": Fixtures.fcmToken(), "providerId": "fcm-1"], "platform"),
                (["pushToken": Fixtures.fcmToken(), "platform": "fcm_android"], "providerId"),
                (["pushToken": Fixtures.fcmToken(), "platform": NSNull(), "providerId": "fcm-1"], "platform"),
                (["pushToken": 12, "platform": "fcm_android", "providerId": "fcm-1"], "pushToken"),
                (["pushToken": Fixtures.fcmToken(), "platform": "fcm_android", "providerId": "fcm-1", "unique": "yes"], "unique"),
                (["pushToken": Fixtures.fcmToken(), "platform": "fcm_android", "providerId": "fcm-1", "device": "pixel"], "device"),
                (
                    ["pushToken": Fixtures.fcmToken(), "platform": "fcm_android", "providerId": "fcm-1", "encryption": ["p256dh": "x"]],
                    "encryption.auth"
                ),
                (
                    [
                        "platform": "web_push", "providerId": "fcm-1",
                        "subscription": ["endpoint": "https://push.test/x", "keys": ["p256dh": "a", "auth": "b", "extra": 1]],
                    ], "subscription.keys.extra"
                ),
                (["platform": "web_push", "providerId": "fcm-1", "subscription": ["keys": ["p256dh": "a", "auth": "b"]]], "subscription.endpoint"),
            ]
            for (body, field) in cases {
                let response = try await client.request(.post, "/v1/me/push-tokens", bearer: session, json: body)
                #expect(response.status == 422, "\(body): \(response.text)")
                #expect(response.errorCode == "invalid_field")
                #expect(response.errorDetails?["field"] == field, "\(body): \(response.text)")
            }
            // The answer (written by hand) says of the token what the list (the generated types) says.
            let registered = try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: session,
                json: ["pushToken": Fixtures.fcmToken(), "platform": "FCM_ANDROID", "providerId": "fcm-1", "unique": true]
            )
            #expect(registered.status == 200 && registered.body["removedTokens"] == .number(0), "\(registered.text)")
            let listed = try await client.request(.get, "/v1/me/push-tokens", bearer: session)
            #expect(registered.body["token"] == listed.body["data"][0] && listed.body["data"][1] == .null, "\(registered.text) vs \(listed.text)")
            #expect(registered.body["token"]["platform"].string == "fcm_android" && registered.body["token"]["encrypted"] == .bool(false))
            _ = try await client.request(.delete, "/v1/me/push-tokens", bearer: session)
            // A disabled provider takes no new tokens.
            #expect(try await client.request(.patch, "/v1/push/providers/fcm-1", bearer: app.apiKey, json: ["enabled": false]).status == 200)
            let disabled = try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: session,
                json: [
                    "pushToken": Fixtures.fcmToken(), "platform": "fcm_android", "providerId": "fcm-1",
                ]
            )
            #expect(disabled.status == 422)
            #expect(disabled.errorMessage?.contains("disabled") == true)
            #expect((try await client.request(.get, "/v1/me/push-tokens", bearer: session)["data"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: TestBackend.available)
    func capHoldsUnderConcurrentRegistrationOverHTTP(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            try await client.addStandardProviders(apiKey: app.apiKey)
            let sessions =
                [try await client.login("ana", apiKey: app.apiKey)]
                + (try await (0..<3).asyncMap { _ in try await Self.session(client, "ana", app.apiKey) })
            let tokens = (0..<48).map { _ in Fixtures.fcmToken() }
            try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, token) in tokens.enumerated() {
                    group.addTask {
                        try await client.request(
                            .post,
                            "/v1/me/push-tokens",
                            bearer: sessions[index % sessions.count],
                            json: [
                                "pushToken": token, "platform": "fcm_android", "providerId": "fcm-1",
                            ]
                        ).status
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            let listed = try await client.request(.get, "/v1/users/ana/push-tokens", bearer: app.apiKey)
            #expect((listed["data"] as? [Any])?.count == 20)

            // Lowering the cap applies at the next registration, oldest first.
            try await client.request(.patch, "/v1/push/settings", bearer: app.apiKey, json: ["maxTokensPerUser": 5])
            let newest = Fixtures.fcmToken()
            let response = try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: sessions[0],
                json: [
                    "pushToken": newest, "platform": "fcm_android", "providerId": "fcm-1",
                ]
            )
            #expect(response["removedTokens"] as? Int == 16)
            let after = try await client.request(.get, "/v1/users/ana/push-tokens", bearer: app.apiKey)
            let kept = (after["data"] as? [[String: Any]])?.compactMap { $0["pushToken"] as? String } ?? []
            #expect(kept.count == 5)
            #expect(kept.first == newest)
        }
    }

    static func session(_ client: HeraldClient, _ uid: String, _ apiKey: String) async throws -> String {
        let response = try await client.request(.post, "/v1/users/\(uid)/sessions", bearer: apiKey, json: ["deviceName": "phone"])
        return try #require(response["authToken"] as? String)
    }

    @Test(arguments: TestBackend.available)
    func tokensMoveBetweenUsersAndRefreshIsIdempotent(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            try await client.addStandardProviders(apiKey: app.apiKey)
            let ana = try await client.login("ana", apiKey: app.apiKey)
            let bo = try await client.login("bo", apiKey: app.apiKey)
            let device = Fixtures.apnsToken()
            let body: [String: Any] = ["pushToken": device.uppercased(), "platform": "APNS_IOS_DEVICE", "providerId": "apns-1"]
            #expect(try await client.request(.post, "/v1/me/push-tokens", bearer: ana, json: body).status == 200)
            #expect(try await client.request(.post, "/v1/me/push-tokens", bearer: ana, json: body).status == 200)
            let anaTokens = try await client.request(.get, "/v1/users/ana/push-tokens", bearer: app.apiKey)
            #expect((anaTokens["data"] as? [[String: Any]])?.map { $0["pushToken"] as? String } == [device])

            // The same token from another user's device moves to that user.
            #expect(try await client.request(.post, "/v1/me/push-tokens", bearer: bo, json: body).status == 200)
            #expect((try await client.request(.get, "/v1/users/ana/push-tokens", bearer: app.apiKey)["data"] as? [Any])?.isEmpty == true)
            #expect((try await client.request(.get, "/v1/users/bo/push-tokens", bearer: app.apiKey)["data"] as? [Any])?.count == 1)

            // A VoIP token of the same device is a second token; unique replaces only its own kind.
            let voip1 = Fixtures.apnsToken()
            let voip2 = Fixtures.apnsToken()
            for voip in [voip1, voip2] {
                #expect(
                    try await client.request(
                        .post,
                        "/v1/me/push-tokens",
                        bearer: bo,
                        json: ["pushToken": voip, "platform": "apns_ios_voip", "providerId": "apns-1"]
                    ).status == 200
                )
            }
            let unique = try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: bo,
                json: ["pushToken": voip2, "platform": "apns_ios_voip", "providerId": "apns-1", "unique": true]
            )
            #expect(unique["removedTokens"] as? Int == 1)
            let boTokens = (try await client.request(.get, "/v1/users/bo/push-tokens", bearer: app.apiKey)["data"] as? [[String: Any]]) ?? []
            #expect(Set(boTokens.compactMap { $0["pushToken"] as? String }) == [device, voip2])
        }
    }

    @Test(arguments: TestBackend.available)
    func logoutRemovesOnlyThatSessionsTokens(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            try await client.addStandardProviders(apiKey: app.apiKey)
            let phone = try await client.login("ana", apiKey: app.apiKey)
            let tablet = try await Self.session(client, "ana", app.apiKey)
            let phoneToken = Fixtures.fcmToken()
            let tabletToken = Fixtures.fcmToken()
            try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: phone,
                json: ["pushToken": phoneToken, "platform": "fcm_android", "providerId": "fcm-1"]
            )
            try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: tablet,
                json: ["pushToken": tabletToken, "platform": "fcm_android", "providerId": "fcm-1"]
            )
            #expect((try await client.request(.get, "/v1/me/push-tokens", bearer: phone)["data"] as? [Any])?.count == 1)

            #expect(try await client.request(.delete, "/v1/me/session", bearer: phone).status == 204)
            #expect(try await client.request(.get, "/v1/me", bearer: phone).status == 401)
            let left = (try await client.request(.get, "/v1/users/ana/push-tokens", bearer: app.apiKey)["data"] as? [[String: Any]]) ?? []
            #expect(left.compactMap { $0["pushToken"] as? String } == [tabletToken])

            // Unregistering before logout (CometChat): all of this session's tokens, then one by one.
            let removed = try await client.request(.delete, "/v1/me/push-tokens", bearer: tablet)
            #expect(removed["removed"] as? Int == 1)
            try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: tablet,
                json: ["pushToken": tabletToken, "platform": "fcm_android", "providerId": "fcm-1"]
            )
            #expect(try await client.request(.delete, "/v1/me/push-tokens/\(tabletToken)", bearer: tablet).status == 204)
            #expect(try await client.request(.delete, "/v1/me/push-tokens/\(tabletToken)", bearer: tablet).status == 404)

            // An admin closing a session removes its tokens too.
            try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: tablet,
                json: ["pushToken": tabletToken, "platform": "fcm_android", "providerId": "fcm-1"]
            )
            let sessions = (try await client.request(.get, "/v1/users/ana/sessions", bearer: app.apiKey)["data"] as? [[String: Any]]) ?? []
            #expect(sessions.count == 1)
            let sessionId = try #require(sessions.first?["sessionId"] as? String)
            #expect(try await client.request(.delete, "/v1/users/ana/sessions/\(sessionId)", bearer: app.apiKey).status == 204)
            #expect((try await client.request(.get, "/v1/users/ana/push-tokens", bearer: app.apiKey)["data"] as? [Any])?.isEmpty == true)
            #expect(try await client.request(.get, "/v1/me", bearer: tablet).status == 401)
        }
    }

    @Test(arguments: TestBackend.available)
    func expiredSessionsAreRefused(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, json: ["name": "Ana"])
            let past = try await client.request(.post, "/v1/users/ana/sessions", bearer: app.apiKey, json: ["expiresAt": "2020-01-01T00:00:00Z"])
            #expect(past.status == 422)
            // Whole seconds on the wire: at least 1 s ahead after truncation, at most 2.5 s.
            let soon = ISO8601DateFormatter().string(from: Date().addingTimeInterval(2.5))
            let session = try await client.request(.post, "/v1/users/ana/sessions", bearer: app.apiKey, json: ["expiresAt": soon])
            let token = try #require(session["authToken"] as? String)
            #expect(try await client.request(.get, "/v1/me", bearer: token).status == 200)
            try await Task.sleep(for: .milliseconds(2_600))
            #expect(try await client.request(.get, "/v1/me", bearer: token).status == 401)
        }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
