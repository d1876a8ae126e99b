import Foundation
import HTTPTypes
import HeraldTestSupport
import Testing

@Suite("Tenant isolation")
struct TenantIsolationTests {
    @Test(arguments: TestBackend.available)
    func keyOfOneAppNeverReachesAnother(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let a = try await herald.makeApp(name: "A")
        let b = try await herald.makeApp(name: "B")
        try await herald.run { client in
            try await client.addStandardProviders(apiKey: b.apiKey)
            let bobToken = try await client.login("bob", apiKey: b.apiKey)
            let registered = try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: bobToken,
                json: [
                    "pushToken": Fixtures.fcmToken(), "platform": "fcm_android", "providerId": "fcm-1",
                ]
            )
            #expect(registered.status == 200)
            #expect(try await client.request(.put, "/v1/groups/room", bearer: b.apiKey, json: ["name": "Room"]).status == 200)

            // A's key sees none of B's resources…
            #expect(try await client.request(.get, "/v1/users/bob", bearer: a.apiKey).status == 404)
            #expect(try await client.request(.get, "/v1/users/bob/push-tokens", bearer: a.apiKey).status == 404)
            #expect(try await client.request(.get, "/v1/users/bob/sessions", bearer: a.apiKey).status == 404)
            #expect(try await client.request(.get, "/v1/groups/room", bearer: a.apiKey).status == 404)
            #expect(try await client.request(.get, "/v1/push/providers/fcm-1", bearer: a.apiKey).status == 404)
            #expect((try await client.request(.get, "/v1/push/providers", bearer: a.apiKey)["data"] as? [Any])?.isEmpty == true)
            // …and changes none of them.
            #expect(try await client.request(.delete, "/v1/users/bob", bearer: a.apiKey).status == 404)
            #expect(try await client.request(.delete, "/v1/push/providers/fcm-1?force=true", bearer: a.apiKey).status == 404)
            #expect(try await client.request(.patch, "/v1/push/providers/fcm-1", bearer: a.apiKey, json: ["enabled": false]).status == 404)
            #expect(try await client.request(.post, "/v1/users/bob/sessions", bearer: a.apiKey, json: [String: Any]()).status == 404)
            #expect(try await client.request(.post, "/v1/groups/room/members", bearer: a.apiKey, json: ["uids": ["bob"]]).status == 404)

            // Naming B's app with A's key is 403.
            let wrongApp = try await client.request(.get, "/v1/push/settings", bearer: a.apiKey, headers: [.init("X-Herald-App")!: b.appId])
            #expect(wrongApp.status == 403)
            #expect(wrongApp.errorCode == "forbidden")
            #expect(try await client.request(.get, "/v1/push/settings", bearer: b.apiKey, headers: [.init("X-Herald-App")!: b.appId]).status == 200)

            // A user token is not an admin key, and an admin key is not a user token.
            #expect(try await client.request(.get, "/v1/users/bob", bearer: bobToken).status == 403)
            #expect(try await client.request(.get, "/v1/me/push-tokens", bearer: b.apiKey).status == 403)

            // A user of app A registering against B's provider id finds no such provider.
            let alice = try await client.login("alice", apiKey: a.apiKey)
            let crossProvider = try await client.request(
                .post,
                "/v1/me/push-tokens",
                bearer: alice,
                json: [
                    "pushToken": Fixtures.fcmToken(), "platform": "fcm_android", "providerId": "fcm-1",
                ]
            )
            #expect(crossProvider.status == 422)
            #expect(crossProvider.errorDetails?["field"] == "providerId")

            // B's data is untouched.
            #expect(try await client.request(.get, "/v1/users/bob", bearer: b.apiKey).status == 200)
            let tokens = try await client.request(.get, "/v1/users/bob/push-tokens", bearer: b.apiKey)
            #expect((tokens["data"] as? [Any])?.count == 1)
        }
    }

    @Test(arguments: TestBackend.available)
    func rotatedKeysWorkUntilRevoked(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let first = try await herald.makeApp()
        let second = try await herald.services.apps.rotateKey(appId: first.appId)
        try await herald.run { client in
            #expect(try await client.request(.get, "/v1/push/settings", bearer: first.apiKey).status == 200)
            #expect(try await client.request(.get, "/v1/push/settings", bearer: second.apiKey).status == 200)
            try await herald.services.apps.revokeKey(appId: first.appId, keyId: first.keyId)
            #expect(try await client.request(.get, "/v1/push/settings", bearer: first.apiKey).status == 401)
            #expect(try await client.request(.get, "/v1/push/settings", bearer: second.apiKey).status == 200)
        }
    }
}
