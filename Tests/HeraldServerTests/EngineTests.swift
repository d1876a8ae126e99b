import Foundation
import HeraldModels
import HeraldTestSupport
import Testing

/// The notification engine end to end: events in, decisions, payloads at the stand-ins.
@Suite("Notification engine")
struct EngineTests {
    @Test(arguments: TestBackend.available)
    func eventsAreCheckedStoredOnceAndTheirFieldsNamed(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let cases: [([String: Any], String)] = [
                    (["type": "party"], "type"),
                    (["type": "message"], "message"),
                    (["type": "message", "message": ["id": 1, "sender": "ana", "receiverType": "user"]], "message.receiver"),
                    (["type": "call", "callAction": "ringing", "sessionId": "s", "sender": "ana", "receiver": "bo"], "callAction"),
                    (["type": "group_action", "action": "kicked", "actor": "ana", "group": "g1"], "target"),
                    (
                        [
                            "events": [
                                EngineWorld.message(from: "ana", to: "bo"),
                                ["type": "message", "message": ["id": 2, "sender": "bad uid!", "receiver": "bo", "receiverType": "user"]],
                            ]
                        ],
                        "events[1].message.sender"
                    ),
                    (["events": [Any]()], "events"),
                    (["events": Array(repeating: EngineWorld.message(from: "ana", to: "bo"), count: 501)], "events"),
                ]
                for (body, field) in cases {
                    let response = try await client.request(.post, "/v1/events", bearer: world.apiKey, json: body)
                    #expect(response.status == 422, "\(field): \(response.text)")
                    #expect(response.errorDetails?["field"] == field, "\(field): \(response.text)")
                }
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
                #expect(try await world.log(client, first[0]).body["event"]["status"].string == "done")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func aMessageReachesEveryDeviceAndWebhookInItsShape(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
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
                let aps = pushed.payload["aps"]
                try #require(aps.object != nil)
                #expect(aps["alert"]["title"].string == "Ana")
                #expect(aps["alert"]["body"].string == "Hi Bo")
                #expect(aps["badge"].int == 1 && aps["mutable-content"].int == 1)
                #expect(pushed.payload["senderAvatar"].string == "https://example.com/ana.png")
                #expect(pushed.payload["message"]["id"].int == 77)

                let fcm = try #require(world.fcm.lastMessage)
                let data = try #require(fcm["data"].stringObject)
                #expect(data["title"] == "Ana" && data["type"] == "chat" && data["conversationId"] == "ana_user_bo")
                #expect(fcm["android"]["priority"].string == "HIGH")
                #expect(fcm["notification"]["body"].string == "Hi Bo")

                let envelope = try #require(world.hook.envelopes.last)
                #expect(envelope["data"]["to"]["uid"].string == "bo")

                let log = try await world.log(client, ids[0])
                #expect((log["counts"] as? [String: Int])?["delivered"] == 3)
                let channels = (log["deliveries"] as? [[String: Any]] ?? []).compactMap { $0["channel"] as? String }.sorted()
                #expect(channels == ["push", "push", "webhook"])
                let byUser = try await client.request(.get, "/v1/deliveries?uid=bo&status=delivered", bearer: world.apiKey)
                #expect((byUser["data"] as? [Any])?.count == 3)
                // The sender is never told of their own message.
                #expect(!(log["deliveries"] as? [[String: Any]] ?? []).contains { $0["uid"] as? String == "ana" })
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func everyDecisionIsRecordedWithItsReason(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let (quiet, _) = try await world.device(client, "quiet", "apns_ios_device")
                let (offMessages, _) = try await world.device(client, "nomsg", "apns_ios_device")
                let (muted, _) = try await world.device(client, "muted", "apns_ios_device")
                let (mentions, _) = try await world.device(client, "mentions", "apns_ios_device")
                try await world.device(client, "pushed", "apns_ios_device")
                try await client.request(.put, "/v1/users/notokens", bearer: world.apiKey, json: ["name": "No Tokens"])
                try await client.request(.put, "/v1/users/ana", bearer: world.apiKey, json: ["name": "Ana"])
                let until = ISO8601DateFormatter().string(from: world.clock.now().addingTimeInterval(3_600))
                #expect(
                    try await client.request(.patch, "/v1/me/preferences", bearer: quiet, json: ["doNotDisturb": ["enabled": true, "until": until]])
                        .status == 200
                )
                #expect(
                    try await client.request(.patch, "/v1/me/preferences", bearer: offMessages, json: ["events": ["message": false]]).status == 200
                )
                let mute = try await client.request(.put, "/v1/me/mutes/group_team", bearer: muted)
                #expect(mute.status == 200, "\(mute.text)")
                #expect(try await client.request(.patch, "/v1/me/preferences", bearer: mentions, json: ["groupMentionsOnly": true]).status == 200)

                try await client.request(.put, "/v1/groups/team", bearer: world.apiKey, json: ["name": "Team"])
                let everyone = ["ana", "quiet", "nomsg", "muted", "mentions", "pushed", "notokens"]
                try await client.request(.post, "/v1/groups/team/members", bearer: world.apiKey, json: ["uids": everyone])
                let group = try await world.post(client, EngineWorld.message(from: "ana", to: "team", receiverType: "group"))
                let suppressed = try await world.post(client, EngineWorld.message(from: "ana", to: "pushed", extra: ["suppressPush": true]))
                try await world.drain()

                let reasons = Dictionary(
                    try await world.deliveries(client, group[0]).map {
                        ($0["uid"] as! String, ($0["status"] as! String) + ":" + ($0["reason"] as? String ?? ""))
                    },
                    uniquingKeysWith: { $1 }
                )
                #expect(
                    reasons == [
                        "quiet": "skipped:do_not_disturb", "nomsg": "skipped:preference_off", "muted": "skipped:muted",
                        "mentions": "skipped:mentions_only",
                        "pushed": "delivered:", "notokens": "skipped:no_tokens",
                    ]
                )
                #expect(try await world.deliveries(client, suppressed[0]).first?["reason"] as? String == "suppressed")

                // Mentioned, the mentions-only member is told; disabled for the app, nobody is.
                let mention = try await world.post(
                    client,
                    EngineWorld.message(from: "ana", to: "team", receiverType: "group", extra: ["mentions": ["mentions"]])
                )
                try await world.drain()
                #expect(
                    try await world.deliveries(client, mention[0]).first { $0["uid"] as? String == "mentions" }?["status"] as? String == "delivered"
                )
                try await client.request(.patch, "/v1/push/settings", bearer: world.apiKey, json: ["enabled": false])
                let disabled = try await world.post(client, EngineWorld.message(from: "ana", to: "pushed"))
                try await world.drain()
                #expect(try await world.deliveries(client, disabled[0]).first?["reason"] as? String == "push_disabled")
                let preferences = try await client.request(.get, "/v1/users/nomsg/preferences", bearer: world.apiKey)
                #expect(
                    (preferences["events"] as? [String: Bool])?["message"] == false && (preferences["events"] as? [String: Bool])?["call"] == true
                )
            }
        }
    }
}

@Suite("Notification engine: routing, retries, expiry and lifecycle")
struct EngineLifecycleTests {
    @Test(arguments: TestBackend.available)
    func callsRingOnVoIPTokensAndEndAsBackgroundUpdates(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                // An iPhone with both a PushKit and a standard token, an iPad with a standard token only, an Android phone.
                let (iphone, voip) = try await world.device(client, "bo", "apns_ios_voip")
                let (_, iphoneAlert) = try await world.device(client, "bo", "apns_ios_device", session: iphone)
                let (_, ipad) = try await world.device(client, "bo", "apns_ios_device")
                try await world.device(client, "bo", "fcm_android")
                let call = [
                    "type": "call", "callAction": "initiated", "sessionId": "v1.123.aik2", "callType": "video", "sender": "ana", "receiver": "bo",
                ]
                let ringing = try await world.post(client, call)
                try await world.drain()
                let routes = Dictionary(
                    try await world.deliveries(client, ringing[0]).map { ($0["target"] as! String, $0["route"] as? String ?? "") },
                    uniquingKeysWith: { $1 }
                )
                #expect(routes[voip] == "voip" && routes[ipad] == "alert" && routes[iphoneAlert] == nil)
                let rang = try #require(world.apnsPayloads(to: voip).first)
                #expect(rang.headers["apns-push-type"] == "voip" && rang.headers["apns-topic"] == "com.acme.app.voip")
                #expect(rang.payload["sessionId"].string == "v1.123.aik2" && rang.payload["callType"].string == "video")
                #expect(world.apnsPayloads(to: ipad).first?.payload["aps"]["alert"]["body"].string == "VIDEO CALL")
                #expect(world.fcm.lastMessage?["data"].stringObject?["callAction"] == "initiated")

                var ended = call
                ended["callAction"] = "ended"
                let hangUp = try await world.post(client, ended)
                try await world.drain()
                let endRoutes = try await world.deliveries(client, hangUp[0]).map { ($0["target"] as! String, $0["route"] as? String ?? "") }
                #expect(!endRoutes.contains { $0.0 == voip })  // never a VoIP push without a call to report
                #expect(endRoutes.filter { $0.1 == "background" }.count == 3)
                let update = try #require(world.apnsPayloads(to: iphoneAlert).first)
                #expect(update.headers["apns-push-type"] == "background" && update.headers["apns-priority"] == "5")
                #expect(update.payload["aps"]["content-available"].int == 1 && update.payload["aps"].object?["alert"] == nil)
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func retriesWaitForRetryAfterAndStaleCallsExpire(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let (_, android) = try await world.device(client, "bo", "fcm_android")
                world.fcm.script(
                    token: android,
                    .init(status: 503, canonical: "UNAVAILABLE", fcmError: "UNAVAILABLE", message: "busy", retryAfter: "30")
                )
                let ids = try await world.post(client, EngineWorld.message(from: "ana", to: "bo"))
                try await world.drain()
                var delivery = try #require(try await world.deliveries(client, ids[0]).first)
                #expect(delivery["status"] as? String == "pending" && delivery["attempts"] as? Int == 1)
                let next = try #require(
                    (delivery["nextAttemptAt"] as? String).flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) }
                )
                #expect(next.timeIntervalSince(world.clock.now()) >= 29, "no request before its Retry-After")

                // Nothing goes before then; after it, the retry is delivered.
                world.clock.advance(by: 20)
                #expect(try await world.drain() == 0)
                world.fcm.script(token: android, .init(status: 200, canonical: "", fcmError: nil, message: ""))
                world.clock.advance(by: 11)
                #expect(try await world.drain() == 1)
                delivery = try #require(try await world.deliveries(client, ids[0]).first)
                #expect(delivery["status"] as? String == "delivered" && delivery["attempts"] as? Int == 2)

                // A call nobody could be told of within its minute is dropped, with a record.
                try await client.request(.patch, "/v1/push/settings", bearer: world.apiKey, json: ["callTTLSeconds": 60])
                world.fcm.script(
                    token: android,
                    .init(status: 503, canonical: "UNAVAILABLE", fcmError: "UNAVAILABLE", message: "busy", retryAfter: "45")
                )
                let call = try await world.post(
                    client,
                    ["type": "call", "callAction": "initiated", "sessionId": "s-1", "sender": "ana", "receiver": "bo"]
                )
                try await world.drain()
                world.clock.advance(by: 61)
                try await world.drain()
                let dropped = try #require(try await world.deliveries(client, call[0]).first)
                #expect(dropped["status"] as? String == "expired", "\(dropped)")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func deadTokensArePrunedAndBrokenCredentialsSetAside(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let (_, gone) = try await world.device(client, "bo", "apns_ios_device")
                world.apns.script(deviceToken: gone, .init(status: 410, reason: "Unregistered", timestampMs: 1_700_000_000_000))
                let first = try await world.post(client, EngineWorld.message(from: "ana", to: "bo"))
                try await world.drain()
                #expect((try await world.deliveries(client, first[0]).first?["reason"] as? String)?.hasPrefix("token_invalid: Unregistered") == true)
                #expect((try await client.request(.get, "/v1/users/bo/push-tokens", bearer: world.apiKey)["data"] as? [Any])?.isEmpty == true)
                #expect(
                    ((try await client.request(.get, "/v1/push/pruned-tokens?uid=bo", bearer: world.apiKey))["data"] as? [[String: Any]])?.first?[
                        "pushToken"
                    ] as? String == gone
                )

                // FCM says the credential is no good: the provider is set aside, say why, until it is changed.
                let (_, android) = try await world.device(client, "bo", "fcm_android")
                world.fcm.script(
                    token: android,
                    .init(status: 401, canonical: "UNAUTHENTICATED", fcmError: "THIRD_PARTY_AUTH_ERROR", message: "bad APNs key")
                )
                let second = try await world.post(client, EngineWorld.message(from: "ana", to: "bo"))
                try await world.drain()
                #expect((try await world.deliveries(client, second[0]).first?["reason"] as? String)?.hasPrefix("credential_broken") == true)
                let provider = try await client.request(.get, "/v1/push/providers/fcm-1", bearer: world.apiKey)
                #expect(provider.body["broken"]["reason"].string == "THIRD_PARTY_AUTH_ERROR")
                let received = world.fcm.messageCount
                let third = try await world.post(client, EngineWorld.message(from: "ana", to: "bo"))
                try await world.drain()
                #expect(world.fcm.messageCount == received)
                #expect(try await world.deliveries(client, third[0]).first?["reason"] as? String == "no_usable_tokens")
                // Changing the provider clears it.
                world.fcm.script(token: android, .init(status: 200, canonical: "", fcmError: nil, message: ""))
                #expect(
                    try await client.request(.patch, "/v1/push/providers/fcm-1", bearer: world.apiKey, json: ["includeNotificationKey": false])[
                        "broken"
                    ] == nil
                )
                let fourth = try await world.post(client, EngineWorld.message(from: "ana", to: "bo"))
                try await world.drain()
                #expect(try await world.deliveries(client, fourth[0]).first?["status"] as? String == "delivered")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func anEndedSessionsDevicesGetASilentPush(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let (session, phone) = try await world.device(client, "bo", "apns_ios_device")
                let (_, voip) = try await world.device(client, "bo", "apns_ios_voip", session: session)
                #expect(try await client.request(.delete, "/v1/me/session", bearer: session).status == 204)
                try await world.drain()
                let silent = try #require(world.apnsPayloads(to: phone).first)
                #expect(silent.headers["apns-push-type"] == "background")
                #expect(silent.payload["type"].string == "session" && silent.payload["action"].string == "logged out")
                #expect(silent.payload["aps"]["content-available"].int == 1)
                #expect(world.apnsPayloads(to: voip).isEmpty)

                // A session whose time runs out is logged out the same way.
                let expires = ISO8601DateFormatter().string(from: world.clock.now().addingTimeInterval(60))
                let created = try await client.request(.post, "/v1/users/bo/sessions", bearer: world.apiKey, json: ["expiresAt": expires])
                let (_, tablet) = try await world.device(client, "bo", "apns_ios_device", session: try #require(created["authToken"] as? String))
                world.clock.advance(by: 61)
                try await world.herald.services.expireSessions()
                try await world.drain()
                #expect(world.apnsPayloads(to: tablet).first?.payload["action"].string == "session expired")
                #expect((try await client.request(.get, "/v1/users/bo/sessions", bearer: world.apiKey)["data"] as? [Any])?.isEmpty == true)
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func theBadgeCountsUnreadMessagesUntilRead(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let (_, phone) = try await world.device(client, "bo", "apns_ios_device")
                let badges = { world.apnsPayloads(to: phone).compactMap { $0.payload["aps"]["badge"].int } }
                for sender in ["ana", "ana", "cy"] {
                    try await world.post(client, EngineWorld.message(from: sender, to: "bo"))
                    try await world.drain()
                }
                #expect(badges() == [1, 2, 3])
                // Reading one conversation takes its two messages off; messages decided together count
                // one another, each push showing the count with its own message.
                try await world.post(client, ["type": "read", "uid": "bo", "conversationId": "ana_user_bo"])
                try await world.drain()
                try await world.post(client, ["events": [EngineWorld.message(from: "cy", to: "bo"), EngineWorld.message(from: "dee", to: "bo")]])
                try await world.drain()
                #expect(badges().suffix(2).sorted() == [2, 3])
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func templatesFollowTheRecipientsLocale(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let (_, portuguese) = try await world.device(client, "bo", "apns_ios_device", locale: "pt-BR")
                let (_, english) = try await world.device(client, "cy", "apns_ios_device", locale: "en")
                let put = try await client.request(
                    .put,
                    "/v1/push/templates/message/user/pt",
                    bearer: world.apiKey,
                    json: ["title": "{{sender.name}} enviou", "body": "«{{message.text}}»"]
                )
                #expect(put.status == 200, "\(put.text)")
                #expect(
                    try await client.request(
                        .put,
                        "/v1/push/templates/message/user/pt",
                        bearer: world.apiKey,
                        json: ["title": "{{password}}", "body": "x"]
                    ).errorDetails?["field"] == "title"
                )
                try await client.request(.put, "/v1/users/ana", bearer: world.apiKey, json: ["name": "Ana"])
                for uid in ["bo", "cy"] { try await world.post(client, EngineWorld.message(from: "ana", to: uid, text: "Olá")) }
                try await world.drain()
                let alert = { (token: String) in world.apnsPayloads(to: token).first?.payload["aps"]["alert"].stringObject }
                #expect(alert(portuguese) == ["title": "Ana enviou", "body": "«Olá»"])
                #expect(alert(english) == ["title": "Ana", "body": "Olá"])

                let preview = try await client.request(
                    .post,
                    "/v1/push/templates/preview",
                    bearer: world.apiKey,
                    json: [
                        "eventType": "group_action", "receiverType": "group", "template": ["title": "{{group.name}}", "body": "{{actionText}}!"],
                    ]
                )
                #expect(preview["title"] as? String == "Hiking group" && preview["body"] as? String == "Andrew Joseph has left!")
                let builtIn = try await client.request(.get, "/v1/push/templates/call/user/default", bearer: world.apiKey)
                #expect(builtIn["builtIn"] as? Bool == true && builtIn["body"] as? String == "{{uppercased(callType)}} CALL")
            }
        }
    }
}

@Suite("Notification engine: presence and scale")
struct EnginePresenceAndScaleTests {
    @Test(arguments: TestBackend.available)
    func onlineSessionsAreToldInAppUnderEitherPolicy(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.runLive { client, port in
                let (laptop, laptopToken) = try await world.device(client, "bo", "fcm_web")
                let (_, phoneToken) = try await world.device(client, "bo", "apns_ios_device")
                let ws = try await RealtimeTestClient.connect(port: port, token: laptop)

                // all_offline (the default): one session online, so no push at all; the event goes in-app.
                let first = try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "you there?"))
                try await world.drain()
                guard case .event(let event) = try await ws.next() else {
                    Issue.record("no event envelope")
                    return
                }
                #expect(event.eventId == first[0] && event.eventType == "message" && event.payload["body"] == .string("you there?"))
                let decided = try await world.deliveries(client, first[0])
                #expect(decided.map { $0["channel"] as? String } == ["inapp"])
                #expect(world.apnsPayloads(to: phoneToken).isEmpty && world.fcm.messageCount == 0)

                // any_offline: the phone (offline) is pushed, the laptop (online) is told in-app.
                try await client.request(.patch, "/v1/push/settings", bearer: world.apiKey, json: ["multiDevicePolicy": "any_offline"])
                let second = try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "ping"))
                try await world.drain()
                guard case .event = try await ws.next() else {
                    Issue.record("no second event envelope")
                    return
                }
                let targets = Set(try await world.deliveries(client, second[0]).compactMap { $0["target"] as? String })
                #expect(targets == [phoneToken, "inapp"] && !targets.contains(laptopToken))
                #expect(world.apnsPayloads(to: phoneToken).count == 1)
                ws.close()
            }
        }
    }

    /// `count` users ("member00000"…, named "Member 00000"…), stored 1,000 at a time, all in the
    /// group "everyone"; their uids.
    static func groupEveryone(of count: Int, _ client: HeraldClient, _ world: EngineWorld) async throws -> [String] {
        let uids = (0..<count).map { String(format: "member%05d", $0) }
        for start in stride(from: 0, to: uids.count, by: 1_000) {
            let batch = uids[start..<min(start + 1_000, count)].map { ["uid": $0, "name": "Member \($0.suffix(5))"] }
            let stored = try await client.request(.post, "/v1/users/batch", bearer: world.apiKey, json: ["users": batch])
            #expect(stored["stored"] as? Int == batch.count, "\(stored.text)")
        }
        try await client.request(.put, "/v1/groups/everyone", bearer: world.apiKey, json: ["name": "Everyone"])
        #expect(
            try await client.request(.post, "/v1/groups/everyone/members", bearer: world.apiKey, json: ["uids": uids])["added"] as? Int == count
        )
        return uids
    }

    /// A 10,000-member group fans out in pages of 1,000, never all in memory, to every member but
    /// the sender, each with a recorded decision.
    @Test(arguments: TestBackend.available)
    func aTenThousandMemberGroupFansOutInPages(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let uids = try await Self.groupEveryone(of: 10_000, client, world)
                var tokens: [String] = []
                for uid in [uids[3], uids[4_500], uids[9_999]] {
                    tokens.append(try await world.device(client, uid, "apns_ios_device", session: nil).token)
                }
                let event = try await world.post(client, EngineWorld.message(from: uids[0], to: "everyone", text: "All hands", receiverType: "group"))
                var rounds = 0
                while true {
                    let result = try await world.herald.services.engine.fanOut.runOnce(limit: 10)
                    if result.events == 0 { break }
                    rounds += 1
                }
                #expect(rounds == 10)  // ten pages of a thousand
                let log = try await world.log(client, event[0])
                let summary = log.body["event"]
                try #require(summary.object != nil)
                #expect(summary["status"].string == "done" && summary["recipients"].int == 9_999)
                #expect((log["counts"] as? [String: Int]) == ["delivered": 3, "skipped": 9_996])
                for token in tokens {
                    let alert = world.apnsPayloads(to: token).first?.payload["aps"]["alert"].stringObject
                    #expect(alert == ["title": "Everyone", "body": "Member 00000: All hands"])
                }
                let senderDeliveries = try await client.request(.get, "/v1/deliveries?uid=\(uids[0])&eventId=\(event[0])", bearer: world.apiKey)
                #expect((senderDeliveries["data"] as? [Any])?.isEmpty == true)
            }
        }
    }

    /// With the engine's workers running, a group's next page is decided and sent while the one
    /// before it is still being sent and recorded: every member is still told once, every page
    /// recorded once, in order.
    @Test(arguments: TestBackend.available)
    func aGroupsPagesOverlapAcrossWorkersAndEveryMemberIsToldOnce(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend, workers: true) { world in
            try await world.herald.run { client in
                let uids = try await Self.groupEveryone(of: 3_500, client, world)
                var tokens: [String] = []
                for uid in [uids[1], uids[999], uids[1_000], uids[2_500], uids[3_499]] {
                    tokens.append(try await world.device(client, uid, "apns_ios_device", session: nil).token)
                }
                let event = try await world.post(client, EngineWorld.message(from: uids[0], to: "everyone", text: "All hands", receiverType: "group"))
                var summary = JSONValue.null
                var counts: [String: Int] = [:]
                for _ in 0..<1_000 {
                    let log = try await world.log(client, event[0])
                    summary = log.body["event"]
                    counts = (log["counts"] as? [String: Int]) ?? [:]
                    if summary["status"].string == "done", counts.values.reduce(0, +) == 3_499 { break }
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(summary["status"].string == "done" && summary["recipients"].int == 3_499, "\(summary)")
                #expect(counts == ["delivered": 5, "skipped": 3_494], "one row per member, none twice")
                for token in tokens { #expect(world.apnsPayloads(to: token).count == 1, "told once: \(token)") }
                #expect(world.herald.services.engine.fanOut.pages.count == 0, "no link left behind")
            }
        }
    }
}
