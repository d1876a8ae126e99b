import Foundation
import HTTPTypes
import HeraldModels
import HeraldTestSupport
import Testing

/// What a new user meets in their first hour with the API: the event log shows the event as it
/// was posted; errors name the field and say what would be right; a reused event id with another
/// body is refused; an event that reached nobody says why.
@Suite("First hour")
struct FirstHourTests {
    @Test(arguments: TestBackend.available)
    func theEventLogShowsTheEventAsPosted(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                try await world.device(client, "bo", "apns_ios_device")
                let posted: [String: Any] = [
                    "id": "msg-1", "type": "message", "action": "new",
                    "message": [
                        "id": 123, "text": "Hello!", "sender": "ana", "receiver": "bo", "receiverType": "user",
                        "sentAt": 1_741_847_453,
                    ],
                ]
                let ids = try await world.post(client, posted)
                try await world.drain()
                let log = try await world.log(client, ids[0])
                #expect(!log.text.contains("\"_0\""), "Swift's enum encoding leaked: \(log.text)")
                let postedJSON = try JSONValue(jsonBytes: JSONSerialization.data(withJSONObject: posted))
                let event = log.body["event"]
                try #require(event.object != nil)
                let body = event["event"]
                try #require(body.object != nil)
                #expect(body == postedJSON, "\(body)")
                #expect(event["receivedAt"].string?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(event)")
                #expect(event["clientId"].string == "msg-1")
                // The list shows the same.
                let listed = try await client.request(.get, "/v1/events", bearer: world.apiKey).body["data"][0]
                try #require(listed.object != nil)
                #expect(listed["event"] == postedJSON)

                // Herald's own event (a session ended) in a public shape, without the device tokens.
                let (session, token) = try await world.device(client, "cy", "apns_ios_device")
                #expect(try await client.request(.delete, "/v1/me/session", bearer: session).status == 204)
                let events = try #require(try await client.request(.get, "/v1/events", bearer: world.apiKey).body["data"].array)
                #expect(events.allSatisfy { $0.object != nil })
                let ended = try #require(events.first { $0["event"]["type"].string == "session" })
                let shape = try #require(ended["event"].object)
                #expect(Set(shape.keys) == ["type", "uid", "sessionId", "reason", "devices"], "\(shape)")
                #expect(shape["uid"]?.string == "cy" && shape["reason"]?.string != nil, "\(shape)")
                #expect(!(try JSONValue.object(shape).jsonText()).contains(token))
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func anEventIdPostedAgainWithAnotherBodyIsAConflict(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                var event = EngineWorld.message(from: "ana", to: "bo", text: "first", id: 1)
                event["id"] = "backend-7"
                let first = try await world.post(client, event)
                #expect(try await world.post(client, event) == first, "the same body again is the same event")
                var changed = event
                changed["message"] = ["id": 1, "text": "second", "sender": "ana", "receiver": "bo", "receiverType": "user"]
                let refused = try await client.request(.post, "/v1/events", bearer: world.apiKey, json: changed)
                #expect(refused.status == 409 && refused.errorCode == "event_id_conflict", "\(refused.text)")
                #expect(
                    refused.errorDetails?["field"] == "id" && refused.errorDetails?["id"] == "backend-7"
                        && refused.errorDetails?["eventId"] == first[0]
                )
                // In a batch the whole post is refused, its other events unstored.
                let before = (try await client.request(.get, "/v1/events", bearer: world.apiKey)["data"] as? [Any])?.count
                let batch = try await client.request(
                    .post,
                    "/v1/events",
                    bearer: world.apiKey,
                    json: ["events": [EngineWorld.message(from: "ana", to: "bo"), changed]]
                )
                #expect(batch.status == 409 && batch.errorDetails?["field"] == "events[1].id", "\(batch.text)")
                #expect((try await client.request(.get, "/v1/events", bearer: world.apiKey)["data"] as? [Any])?.count == before)
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func anEventThatReachedNobodySaysWhy(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                for uid in ["ana", "bo"] {
                    #expect(try await client.request(.put, "/v1/users/\(uid)", bearer: world.apiKey, json: ["name": uid]).status == 200)
                }
                #expect(
                    try await client.request(.put, "/v1/groups/solo", bearer: world.apiKey, json: ["name": "Solo", "owner": "ana"]).status == 200
                )
                #expect(try await client.request(.post, "/v1/groups/solo/members", bearer: world.apiKey, json: ["uids": ["ana"]]).status < 300)
                let toNoGroup = try await world.post(client, EngineWorld.message(from: "ana", to: "ghosts", receiverType: "group"))[0]
                let toSolo = try await world.post(client, EngineWorld.message(from: "ana", to: "solo", receiverType: "group"))[0]
                let toNobody = try await world.post(client, EngineWorld.message(from: "ana", to: "zed"))[0]
                let toBo = try await world.post(client, EngineWorld.message(from: "ana", to: "bo"))[0]
                try await world.drain()
                func summary(_ id: String) async throws -> JSONValue {
                    let event = try await world.log(client, id).body["event"]
                    try #require(event.object != nil)
                    return event
                }
                #expect(try await summary(toNoGroup)["reason"].string == "unknown_group")
                #expect(try await summary(toNoGroup)["recipients"].int == 0)
                #expect(try await summary(toSolo)["reason"].string == "no_members")
                #expect(try await summary(toNobody)["reason"].string == "unknown_user")
                #expect(try await world.deliveries(client, toNobody).first?["reason"] as? String == "unknown_user")
                // A known user without devices reached nobody for a reason of their own, on the delivery.
                #expect(try await summary(toBo).object?["reason"] == nil)
                #expect(try await world.deliveries(client, toBo).first?["reason"] as? String == "no_tokens")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func errorsNameTheFieldAndWhatWouldBeRight(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.run { client in
            // A kind that does not exist names the kinds that do.
            let kind = try await client.request(.post, "/v1/push/providers", bearer: app.apiKey, json: ["providerId": "p", "kind": "firebase"])
            #expect(kind.status == 422 && kind.errorDetails?["field"] == "kind", "\(kind.text)")
            #expect(["fcm", "apns", "hms", "custom", "firebase"].allSatisfy { kind.errorMessage?.contains($0) == true }, "\(kind.text)")

            // Unknown fields are refused by name, at any depth, wherever the contract is closed.
            let typo = try await client.request(.put, "/v1/users/zed", bearer: app.apiKey, json: ["name": "Zed", "nmae": "typo"])
            #expect(typo.status == 422 && typo.errorDetails?["field"] == "nmae", "\(typo.text)")
            #expect(try await client.request(.get, "/v1/users/zed", bearer: app.apiKey).status == 404, "nothing of a refused request is stored")
            let nested = try await client.request(
                .patch,
                "/v1/push/settings",
                bearer: app.apiKey,
                json: ["defaultPreferences": ["doNotDisturb": ["enabled": true, "strat": "22:00"]]]
            )
            #expect(nested.status == 422 && nested.errorDetails?["field"] == "defaultPreferences.doNotDisturb.strat", "\(nested.text)")
            let batch = try await client.request(
                .post,
                "/v1/users/batch",
                bearer: app.apiKey,
                json: ["users": [["uid": "a", "name": "A"], ["name": "B"]]]
            )
            #expect(batch.status == 422 && batch.errorDetails?["field"] == "users[1].uid", "\(batch.text)")
            let mismatch = try await client.request(.put, "/v1/users/zed", bearer: app.apiKey, json: ["uid": "zoe", "name": "Zed"])
            #expect(mismatch.status == 422 && mismatch.errorDetails?["field"] == "uid", "\(mismatch.text)")

            // A body that is not JSON, or says nothing of its type: 415 with one code on every route.
            for (method, path, type) in [
                (HTTPRequest.Method.post, "/v1/events", "application/x-www-form-urlencoded"),
                (.put, "/v1/users/zed", "text/plain"), (.post, "/v1/campaigns", nil), (.patch, "/v1/push/settings", nil),
            ] {
                var headers: HTTPFields = [:]
                if let type { headers[.contentType] = type } else { headers[.contentType] = "" }
                let response = try await client.request(method, path, bearer: app.apiKey, raw: #"{"name":"Zed"}"#, headers: headers)
                #expect(
                    response.status == 415 && response.errorCode == "unsupported_media_type",
                    "\(method) \(path): \(response.status) \(response.text)"
                )
            }
            // JSON with a charset, or a +json type, is JSON.
            let charset = try await client.request(
                .put,
                "/v1/users/zed",
                bearer: app.apiKey,
                raw: #"{"name":"Zed"}"#,
                headers: [.contentType: "application/json; charset=utf-8"]
            )
            #expect(charset.status == 200, "\(charset.text)")

            // A wrong method is a 405 with Allow; a path that does not exist stays a 404.
            let wrong = try await client.request(.delete, "/v1/events", bearer: app.apiKey)
            #expect(wrong.status == 405 && wrong.errorCode == "method_not_allowed", "\(wrong.status) \(wrong.text)")
            #expect(wrong.headers[.allow] == "GET, HEAD, POST", "\(wrong.headers)")
            let patchUser = try await client.request(.patch, "/v1/users/zed", bearer: app.apiKey, json: ["name": "Z"])
            #expect(patchUser.status == 405 && patchUser.headers[.allow] == "DELETE, GET, HEAD, PUT", "\(patchUser.headers)")
            #expect(try await client.request(.get, "/v1/nothing-here", bearer: app.apiKey).status == 404)

            // A card with four problems lists all four.
            let card: [String: Any] = [
                "version": "2.0",
                "body": [
                    ["type": "text", "id": "a"],
                    [
                        "type": "button", "id": "a", "label": "Go",
                        "action": ["type": "openUrl", "url": "ftp://x"],
                    ],
                ],
            ]
            let refused = try await client.request(.post, "/v1/feed/templates", bearer: app.apiKey, json: ["id": "t", "name": "T", "card": card])
            #expect(refused.status == 422 && refused.errorCode == "invalid_card", "\(refused.text)")
            let message = refused.errorMessage ?? ""
            let count = Int(message.firstMatch(of: /the card has (\d+) problems/)?.1 ?? "0") ?? 0
            #expect(count >= 4, "\(message)")
            #expect(message.components(separatedBy: "; /").count == count, "every problem is listed: \(message)")
        }
    }
}
