import Foundation
import HeraldTestSupport
import Testing

/// The notification engine end to end: events in, decisions, payloads at the stand-ins.
@Suite("Notification engine")
struct EngineTests {
    @Test(arguments: TestBackend.available)
    func eventsAreCheckedStoredOnceAndTheirFieldsNamed(_ backend: TestBackend) async throws {
        let world = try await EngineWorld.make(backend)
        try await world.herald.run { client in
            let cases: [([String: Any], String)] = [
                (["type": "party"], "type"),
                (["type": "message"], "message"),
                (["type": "message", "message": ["id": 1, "sender": "ana", "receiverType": "user"]], "message.receiver"),
                (["type": "call", "callAction": "ringing", "sessionId": "s", "sender": "ana", "receiver": "bo"], "callAction"),
                (["type": "group_action", "action": "kicked", "actor": "ana", "group": "g1"], "target"),
                (["events": [EngineWorld.message(from: "ana", to: "bo"), ["type": "message", "message": ["id": 2, "sender": "bad uid!", "receiver": "bo", "receiverType": "user"]]]],
                 "events[1].message.sender"),
                (["events": [Any]()], "events"),
                (["events": Array(repeating: EngineWorld.message(from: "ana", to: "bo"), count: 501)], "events"),
            ]
            for (body, field) in cases {
                let response = try await client.request(.post, "/v1/events", bearer: world.apiKey, json: body)
                #expect(response.status == 422, "\(field): \(response.text)")
                #expect(response.errorDetails?["field"] == field, "\(field): \(response.text)")
            }
            #expect(try await client.request(.get, "/v1/events", bearer: world.apiKey)["data"] as? [Any] == nil || true)
            // Nothing of a refused batch was stored.
            #expect((try await client.request(.get, "/v1/events", bearer: world.apiKey)["data"] as? [Any])?.isEmpty == true)

            // The same client id is the same event, delivered once.
            try await world.device(client, "bo", "apns_ios_device")
            var event = EngineWorld.message(from: "ana", to: "bo")
            event["id"] = "backend-msg-1"
            let first = try await world.post(client, event)
            let again = try await world.post(client, ["events": [event, EngineWorld.message(from: "ana", to: "bo")]])
            #expect(again[0] == first[0] && again[1] != first[0])
            try await world.drain()
            #expect(try await world.deliveries(client, first[0]).count == 1)
            #expect(try await world.log(client, first[0])["event"].flatMap { ($0 as? [String: Any])?["status"] as? String } == "done")
        }
        await world.close()
    }

    @Test(arguments: TestBackend.available)
    func aMessageReachesEveryDeviceAndWebhookInItsShape(_ backend: TestBackend) async throws {
        let world = try await EngineWorld.make(backend)
        try await world.addWebhook()
        try await world.herald.run { client in
            let (_, iphone) = try await world.device(client, "bo", "apns_ios_device", name: "Bo")
            let (boSession, _) = try await world.device(client, "bo", "fcm_android", name: "Bo")
            _ = boSession
            try await client.request(.put, "/v1/users/ana", bearer: world.apiKey, json: ["name": "Ana", "avatar": "https://example.com/ana.png"])
            let ids = try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "Hi Bo", id: 77))
            let sent = try await world.drain()
            let made = try await world.deliveries(client, ids[0])
            #expect(sent == 3, "\(made)")

            let pushed = try #require(world.apnsPayloads(to: iphone).first)
            #expect(pushed.headers["apns-push-type"] == "alert" && pushed.headers["apns-collapse-id"] == "77")
            let aps = try #require(pushed.payload["aps"] as? [String: Any])
            #expect((aps["alert"] as? [String: Any])?["title"] as? String == "Ana")
            #expect((aps["alert"] as? [String: Any])?["body"] as? String == "Hi Bo")
            #expect(aps["badge"] as? Int == 1 && aps["mutable-content"] as? Int == 1)
            #expect(pushed.payload["senderAvatar"] as? String == "https://example.com/ana.png")
            #expect((pushed.payload["message"] as? [String: Any])?["id"] as? Int == 77)

            let fcm = try #require(world.fcm.lastMessage)
            let data = try #require(fcm["data"] as? [String: String])
            #expect(data["title"] == "Ana" && data["type"] == "chat" && data["conversationId"] == "ana_user_bo")
            #expect((fcm["android"] as? [String: Any])?["priority"] as? String == "high")
            #expect((fcm["notification"] as? [String: Any])?["body"] as? String == "Hi Bo")

            let envelope = try #require(world.hook.envelopes.last)
            #expect(((envelope["data"] as? [String: Any])?["to"] as? [String: Any])?["uid"] as? String == "bo")

            let log = try await world.log(client, ids[0])
            #expect((log["counts"] as? [String: Int])?["delivered"] == 3)
            let channels = (log["deliveries"] as? [[String: Any]] ?? []).compactMap { $0["channel"] as? String }.sorted()
            #expect(channels == ["push", "push", "webhook"])
            let byUser = try await client.request(.get, "/v1/deliveries?uid=bo&status=delivered", bearer: world.apiKey)
            #expect((byUser["data"] as? [Any])?.count == 3)
            // The sender is never told of their own message.
            #expect(!(log["deliveries"] as? [[String: Any]] ?? []).contains { $0["uid"] as? String == "ana" })
        }
        await world.close()
    }

    @Test(arguments: TestBackend.available)
    func everyDecisionIsRecordedWithItsReason(_ backend: TestBackend) async throws {
        let world = try await EngineWorld.make(backend)
        try await world.herald.run { client in
            let (quiet, _) = try await world.device(client, "quiet", "apns_ios_device")
            let (offMessages, _) = try await world.device(client, "nomsg", "apns_ios_device")
            let (muted, _) = try await world.device(client, "muted", "apns_ios_device")
            let (mentions, _) = try await world.device(client, "mentions", "apns_ios_device")
            try await world.device(client, "pushed", "apns_ios_device")
            try await client.request(.put, "/v1/users/notokens", bearer: world.apiKey, json: ["name": "No Tokens"])
            try await client.request(.put, "/v1/users/ana", bearer: world.apiKey, json: ["name": "Ana"])
            let until = ISO8601DateFormatter().string(from: world.clock.now().addingTimeInterval(3_600))
            #expect(try await client.request(.patch, "/v1/me/preferences", bearer: quiet, json: ["doNotDisturb": ["enabled": true, "until": until]]).status == 200)
            #expect(try await client.request(.patch, "/v1/me/preferences", bearer: offMessages, json: ["events": ["message": false]]).status == 200)
            let mute = try await client.request(.put, "/v1/me/mutes/group_team", bearer: muted)
            #expect(mute.status == 200, "\(mute.text)")
            #expect(try await client.request(.patch, "/v1/me/preferences", bearer: mentions, json: ["groupMentionsOnly": true]).status == 200)

            try await client.request(.put, "/v1/groups/team", bearer: world.apiKey, json: ["name": "Team"])
            let everyone = ["ana", "quiet", "nomsg", "muted", "mentions", "pushed", "notokens"]
            try await client.request(.post, "/v1/groups/team/members", bearer: world.apiKey, json: ["uids": everyone])
            let group = try await world.post(client, EngineWorld.message(from: "ana", to: "team", receiverType: "group"))
            let suppressed = try await world.post(client, EngineWorld.message(from: "ana", to: "pushed", extra: ["suppressPush": true]))
            try await world.drain()

            let reasons = Dictionary(try await world.deliveries(client, group[0]).map { ($0["uid"] as! String, ($0["status"] as! String) + ":" + ($0["reason"] as? String ?? "")) },
                                     uniquingKeysWith: { $1 })
            #expect(reasons == [
                "quiet": "skipped:do_not_disturb", "nomsg": "skipped:preference_off", "muted": "skipped:muted", "mentions": "skipped:mentions_only",
                "pushed": "delivered:", "notokens": "skipped:no_tokens",
            ])
            #expect(try await world.deliveries(client, suppressed[0]).first?["reason"] as? String == "suppressed")

            // Mentioned, the mentions-only member is told; disabled for the app, nobody is.
            let mention = try await world.post(client, EngineWorld.message(from: "ana", to: "team", receiverType: "group", extra: ["mentions": ["mentions"]]))
            try await world.drain()
            #expect(try await world.deliveries(client, mention[0]).first { $0["uid"] as? String == "mentions" }?["status"] as? String == "delivered")
            try await client.request(.patch, "/v1/push/settings", bearer: world.apiKey, json: ["enabled": false])
            let disabled = try await world.post(client, EngineWorld.message(from: "ana", to: "pushed"))
            try await world.drain()
            #expect(try await world.deliveries(client, disabled[0]).first?["reason"] as? String == "push_disabled")
            let preferences = try await client.request(.get, "/v1/users/nomsg/preferences", bearer: world.apiKey)
            #expect((preferences["events"] as? [String: Bool])?["message"] == false && (preferences["events"] as? [String: Bool])?["call"] == true)
        }
        await world.close()
    }
}
