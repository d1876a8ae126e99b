import Foundation
import HTTPTypes
import HeraldTestSupport
import Testing

@Suite("Users and groups")
struct DirectoryAPITests {
    @Test(arguments: TestBackend.available)
    func usersRoundTrip(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let put = try await client.request(
                .put,
                "/v1/users/ana",
                bearer: app.apiKey,
                json: [
                    "name": "Ana", "avatar": "https://cdn.example.com/ana.png", "metadata": ["plan": "pro", "seats": 3, "flags": ["a": true]],
                    "tags": ["vip"], "locale": "pt-BR", "timeZone": "America/Sao_Paulo",
                ]
            )
            #expect(put.status == 200)
            let got = try await client.request(.get, "/v1/users/ana", bearer: app.apiKey)
            #expect(got["name"] as? String == "Ana")
            #expect(got.body["metadata"]["seats"].int == 3)
            #expect(got.body["metadata"]["flags"]["a"].bool == true)
            #expect(got["tags"] as? [String] == ["vip"])
            #expect(got["timeZone"] as? String == "America/Sao_Paulo")
            #expect(try await client.request(.delete, "/v1/users/ana", bearer: app.apiKey).status == 204)
            #expect(try await client.request(.get, "/v1/users/ana", bearer: app.apiKey).status == 404)
            #expect(try await client.request(.delete, "/v1/users/ana", bearer: app.apiKey).status == 404)
        }
    }

    @Test(arguments: TestBackend.available)
    func groupsMembersAndPaging(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            let noPassword = try await client.request(.put, "/v1/groups/secret", bearer: app.apiKey, json: ["name": "S", "type": "password"])
            #expect(noPassword.errorDetails?["field"] == "password")
            let secret = try await client.request(
                .put,
                "/v1/groups/secret",
                bearer: app.apiKey,
                json: ["name": "S", "type": "password", "password": "open sesame"]
            )
            #expect(secret["hasPassword"] as? Bool == true)
            #expect(!secret.text.contains("open sesame"))
            let badType = try await client.request(.put, "/v1/groups/g", bearer: app.apiKey, json: ["name": "G", "type": "secret"])
            #expect(badType.errorDetails?["field"] == "type")

            #expect(
                try await client.request(.put, "/v1/groups/room", bearer: app.apiKey, json: ["name": "Room", "metadata": ["topic": "cats"]]).status
                    == 200
            )
            let uids = (0..<250).map { String(format: "u%03d", $0) }
            for uid in uids { try await client.request(.put, "/v1/users/\(uid)", bearer: app.apiKey, json: ["name": uid]) }
            let added = try await client.request(
                .post,
                "/v1/groups/room/members",
                bearer: app.apiKey,
                json: ["uids": uids + ["ghost", "u000"], "scope": "participant"]
            )
            #expect(added["added"] as? Int == 250)
            #expect(added["notFound"] as? [String] == ["ghost"])
            let badScope = try await client.request(.post, "/v1/groups/room/members", bearer: app.apiKey, json: ["uids": ["u001"], "scope": "owner"])
            #expect(badScope.errorDetails?["field"] == "scope")
            #expect(try await client.request(.get, "/v1/groups/room", bearer: app.apiKey)["membersCount"] as? Int == 250)

            var seen: [String] = []
            var cursor: String?
            repeat {
                let path = "/v1/groups/room/members?limit=100" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.request(.get, path, bearer: app.apiKey)
                #expect(page.status == 200)
                seen += ((page["data"] as? [[String: Any]]) ?? []).compactMap { $0["uid"] as? String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            #expect(seen == uids)

            #expect(try await client.request(.delete, "/v1/groups/room/members/u001", bearer: app.apiKey).status == 204)
            #expect(try await client.request(.delete, "/v1/groups/room/members/u001", bearer: app.apiKey).status == 404)
            #expect(try await client.request(.get, "/v1/groups/room", bearer: app.apiKey)["membersCount"] as? Int == 249)
            #expect(try await client.request(.delete, "/v1/groups/room", bearer: app.apiKey).status == 204)
            #expect(try await client.request(.get, "/v1/groups/room/members", bearer: app.apiKey).status == 404)
        }
    }
}
