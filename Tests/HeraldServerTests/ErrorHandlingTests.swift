import Foundation
import HTTPTypes
import HeraldCore
import HeraldTestSupport
import Hummingbird
import OpenAPIRuntime
import Testing

@testable import HeraldServer

@Suite("Bad input")
struct ErrorHandlingTests {
    @Test(arguments: TestBackend.available)
    func malformedMistypedAndOversizedBodies(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend, maxBodyBytes: 64 * 1024)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let malformed = try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, raw: #"{"name": "Ana""#)
            #expect(malformed.status == 400)
            #expect(malformed.errorCode == "malformed_json")
            #expect(malformed.body["error"].object != nil)
            #expect(malformed.body["error"]["details"].object != nil)

            let missing = try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, json: ["avatar": "https://x/y.png"])
            #expect(missing.status == 422)
            #expect(missing.errorDetails?["field"] == "name")

            let mistyped = try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, json: ["name": 42])
            #expect(mistyped.status == 422)
            #expect(mistyped.errorDetails?["field"] == "name")

            let badTags = try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, json: ["name": "Ana", "tags": "vip"])
            #expect(badTags.status == 422)

            let notObject = try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, raw: "[1,2,3]")
            #expect([400, 422].contains(notObject.status))
            #expect(notObject.errorCode != nil)

            let huge = String(repeating: "a", count: 70 * 1024)
            let oversized = try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, json: ["name": huge])
            #expect(oversized.status == 413)
            #expect(oversized.errorCode == "payload_too_large")

            let badUid = try await client.request(.put, "/v1/users/ana%20b", bearer: app.apiKey, json: ["name": "Ana"])
            #expect(badUid.status == 422)
            let badZone = try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, json: ["name": "Ana", "timeZone": "Mars/Olympus"])
            #expect(badZone.errorDetails?["field"] == "timeZone")
            let badLocale = try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, json: ["name": "Ana", "locale": "english please"])
            #expect(badLocale.errorDetails?["field"] == "locale")
            let badLimit = try await client.request(.get, "/v1/groups/g/members?limit=abc", bearer: app.apiKey)
            #expect(badLimit.status == 422, "\(badLimit.text)")
            #expect(badLimit.errorDetails?["field"] == "query", "\(badLimit.text)")
            let badCursor = try await client.request(.put, "/v1/groups/g", bearer: app.apiKey, json: ["name": "G"])
            #expect(badCursor.status == 200)
            #expect(try await client.request(.get, "/v1/groups/g/members?cursor=%%%", bearer: app.apiKey).status == 422)
            let badSettings = try await client.request(.patch, "/v1/push/settings", bearer: app.apiKey, json: ["maxTokensPerUser": 0])
            #expect(badSettings.status == 422)
            #expect(badSettings.errorDetails?["field"] == "maxTokensPerUser")
        }
    }

    /// Random bytes and shapes at every body-taking route: always a structured 4xx, never a 500.
    @Test(arguments: TestBackend.available)
    func noInputCausesA500(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let session = try await client.login("ana", apiKey: app.apiKey)
            let routes: [(HTTPRequest.Method, String, String)] = [
                (.put, "/v1/users/ana", app.apiKey), (.put, "/v1/groups/g", app.apiKey), (.post, "/v1/groups/g/members", app.apiKey),
                (.post, "/v1/users/ana/sessions", app.apiKey), (.post, "/v1/push/providers", app.apiKey),
                (.patch, "/v1/push/providers/p", app.apiKey), (.patch, "/v1/push/settings", app.apiKey), (.post, "/v1/me/push-tokens", session),
            ]
            let bodies = [
                "", "null", "true", "\"text\"", "{}", "{\"kind\":null}", "{\"uids\":[1,2]}", "{\"providerId\":{}}",
                "{\"name\":\"\\u0000\"}", "{\"kind\":\"apns\",\"providerId\":\"p\"}", String(repeating: "[", count: 5000),
                "{\"serviceAccount\":[],\"kind\":\"fcm\",\"providerId\":\"x\"}", "{\"expiresAt\":\"yesterday\"}",
            ]
            for (method, path, bearer) in routes {
                for body in bodies {
                    let response = try await client.request(method, path, bearer: bearer, raw: body)
                    #expect(response.status < 500, "\(method) \(path) \(body.prefix(30)): \(response.status) \(response.text)")
                    if response.status >= 400 { #expect(response.errorCode != nil, "\(path): \(response.text)") }
                }
            }
            // NUL in a query or path (PostgreSQL cannot hold it): refused by name, never a 500.
            for (path, field) in [
                ("/v1/push/pruned-tokens?limit=250&uid=%00%7C", "uid"), ("/v1/deliveries?uid=a%00b", "uid"),
                ("/v1/users/%00", "path"), ("/v1/events?before=%00", "before"),
            ] {
                let response = try await client.request(.get, path, bearer: app.apiKey)
                #expect(response.status == 422, "\(path): \(response.status) \(response.text)")
                #expect(response.errorDetails?["field"] == field, "\(path): \(response.text)")
            }
        }
    }

    /// An unexpected error is logged with its cause, never with the request that carried it.
    @Test func unexpectedErrorsAreLoggedWithoutTheRequestsCredentials() {
        struct DatabaseTrouble: Error {}
        var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/v1/feed/channels?cursor=AA")
        request.headerFields[.authorization] = "Bearer hk_secretsecretsecret"
        let error = ServerError(
            operationID: "listFeedChannels",
            request: request,
            requestBody: nil,
            requestMetadata: .init(),
            causeDescription: "User handler threw an error.",
            underlyingError: DatabaseTrouble()
        )
        #expect(
            String(reflecting: error).contains("hk_secretsecretsecret"),
            "the runtime's own description no longer holds the header: this test guards nothing"
        )
        let logged = LoggedError.text(error)
        #expect(!logged.contains("hk_secret"))
        #expect(logged.contains("listFeedChannels") && logged.contains("DatabaseTrouble"))
        #expect((try? Cursor.decode("AA")) == nil, "a cursor of one NUL byte must be refused before it reaches SQL")
    }
}
