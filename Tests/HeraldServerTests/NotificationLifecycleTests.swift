import Foundation
import HeraldCore
import HeraldModels
import HeraldTestSupport
import Testing

/// A notification's whole life, end to end through the APNs and FCM stand-ins on both back-ends:
/// the settings that shape it, mentions that break through, the private content modes.
@Suite("Notification lifecycle")
struct NotificationLifecycleTests {
    @Test(arguments: TestBackend.available)
    func theLifecycleSettingsAndPreferencesAreReadCheckedAndKept(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let defaults = try await client.request(.get, "/v1/push/settings", bearer: world.apiKey).body
                #expect(defaults["clearOnRead"].bool == true && defaults["clearCoalesceSeconds"].int == 5)
                #expect(defaults["burstWindowSeconds"].int == 0 && defaults["contentMode"].string == "full")
                #expect(defaults["androidChannels"]["mentions"].string == "mentions")

                let patched = try await client.request(
                    .patch,
                    "/v1/push/settings",
                    bearer: world.apiKey,
                    json: ["burstWindowSeconds": 30, "contentMode": "idOnly", "androidChannels": ["calls": "ringing"], "clearOnRead": false]
                )
                #expect(patched.status == 200, "\(patched.text)")
                #expect(patched.body["burstWindowSeconds"].int == 30 && patched.body["contentMode"].string == "idOnly")
                #expect(
                    patched.body["androidChannels"]["calls"].string == "ringing" && patched.body["androidChannels"]["messages"].string == "messages"
                )
                #expect(patched.body["clearOnRead"].bool == false)
                let again = try await client.request(.get, "/v1/push/settings", bearer: world.apiKey).body
                #expect(again["contentMode"].string == "idOnly" && again["androidChannels"]["calls"].string == "ringing")

                for (body, field) in [
                    (["contentMode": "secret"], "contentMode"), (["burstWindowSeconds": -1], "burstWindowSeconds"),
                    (["clearCoalesceSeconds": 301], "clearCoalesceSeconds"), (["androidChannels": ["messages": ""]], "androidChannels.messages"),
                ] as [([String: Any], String)] {
                    let refused = try await client.request(.patch, "/v1/push/settings", bearer: world.apiKey, json: body)
                    #expect(refused.status == 422 && refused.errorDetails?["field"] == field, "\(body): \(refused.text)")
                }

                let (session, _) = try await world.device(client, "bo", "apns_ios_device")
                let mine = try await client.request(
                    .patch,
                    "/v1/me/preferences",
                    bearer: session,
                    json: ["keywords": ["release", "on call"], "contentMode": "encrypted"]
                )
                #expect(mine.status == 200 && mine.body["keywords"].strings == ["release", "on call"], "\(mine.text)")
                #expect(mine.body["contentMode"].string == "encrypted")
                let blank = try await client.request(.patch, "/v1/me/preferences", bearer: session, json: ["keywords": ["ok", " "]])
                #expect(blank.status == 422 && blank.errorDetails?["field"] == "keywords[1]")
                let back = try await client.request(.patch, "/v1/me/preferences", bearer: session, json: ["contentMode": "", "keywords": []])
                #expect(back.body["contentMode"] == .null && back.body["keywords"].strings == [])
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func mentionsBreakThroughAndOthersWaitInTheSummary(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let (_, bo) = try await world.device(client, "bo", "apns_ios_device")
                let (_, cy) = try await world.device(client, "cy", "apns_ios_device")
                let (deeSession, dee) = try await world.device(client, "dee", "apns_ios_device")
                _ = try await client.request(
                    .patch,
                    "/v1/me/preferences",
                    bearer: deeSession,
                    json: ["keywords": ["Release"], "groupMentionsOnly": true]
                )
                try await client.request(.put, "/v1/users/ana", bearer: world.apiKey, json: ["name": "Ana"])
                try await client.request(.put, "/v1/groups/team", bearer: world.apiKey, json: ["name": "Team"])
                try await client.request(.post, "/v1/groups/team/members", bearer: world.apiKey, json: ["uids": ["ana", "bo", "cy", "dee"]])

                try await world.post(
                    client,
                    EngineWorld.message(from: "ana", to: "team", text: "the release is out", receiverType: "group", extra: ["mentions": ["cy"]])
                )
                try await world.drain()
                let boAPS = try #require(world.apnsPayloads(to: bo).last).payload["aps"]
                #expect(boAPS["interruption-level"].string == "active" && boAPS["relevance-score"].double == Importance.groupRelevance)
                #expect(boAPS["thread-id"].string == "group_team")
                let cyAPS = try #require(world.apnsPayloads(to: cy).last).payload["aps"]
                #expect(cyAPS["interruption-level"].string == "time-sensitive" && cyAPS["relevance-score"].double == 1.0)
                let deeAPS = try #require(world.apnsPayloads(to: dee).last, "dee's keyword lets it through mentions-only").payload["aps"]
                #expect(deeAPS["interruption-level"].string == "time-sensitive")

                // Without the keyword, dee's mentions-only holds a group message back; @all does not.
                try await world.post(client, EngineWorld.message(from: "ana", to: "team", text: "lunch?", receiverType: "group"))
                try await world.drain()
                #expect(world.apnsPayloads(to: dee).count == 1)
                try await world.post(
                    client,
                    EngineWorld.message(from: "ana", to: "team", text: "standup", receiverType: "group", extra: ["mentionsAll": true])
                )
                try await world.drain()
                #expect(world.apnsPayloads(to: dee).count == 2)
                #expect(world.apnsPayloads(to: bo).last?.payload["aps"]["interruption-level"].string == "time-sensitive")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func idOnlyPushesCarryNothingButIds(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                _ = try await client.request(.patch, "/v1/push/settings", bearer: world.apiKey, json: ["contentMode": "idOnly"])
                let (_, phone) = try await world.device(client, "bo", "apns_ios_device")
                try await world.device(client, "bo", "fcm_android")
                try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "the secret plan", id: 42))
                try await world.drain()
                let pushed = try #require(world.apnsPayloads(to: phone).last)
                #expect(pushed.headers["apns-collapse-id"] == "42" && pushed.headers["apns-push-type"] == "alert")
                #expect(pushed.payload["aps"]["alert"]["loc-key"].string == PushPayloads.newMessageKey)
                #expect(pushed.payload["aps"]["mutable-content"].int == 1 && pushed.payload["aps"]["badge"].int == 1)
                #expect(pushed.payload["herald"]["messageId"].string == "42" && pushed.payload["herald"]["sender"].string == "ana")
                #expect(pushed.payload["herald"]["conversationId"].string == "ana_user_bo")
                #expect(Set(pushed.payload.object?.keys.map { $0 } ?? []) == ["aps", "herald"])
                let fcm = try #require(world.fcm.lastMessage)
                #expect(fcm["data"].stringObject == ["type": "message", "messageId": "42", "conversationId": "ana_user_bo", "sender": "ana"])
                for body in world.apns.received.map(\.body) + world.fcm.messages {
                    #expect(!String(decoding: body, as: UTF8.self).contains("secret plan"), "the text never leaves Herald")
                }
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func aReadClearsTheOtherDevicesAndClearsCoalesce(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.addWebhook()
            try await world.herald.run { client in
                let (laptop, readingPhone) = try await world.device(client, "bo", "apns_ios_device")
                let (_, ipad) = try await world.device(client, "bo", "apns_ios_device")
                let (_, android) = try await world.device(client, "bo", "fcm_android")
                let (_, browser) = try await world.device(client, "bo", "fcm_web")
                let laptopSession = try #require(try await client.request(.get, "/v1/me", bearer: laptop).body["sessionId"].string)
                for (sender, id) in [("ana", 1), ("ana", 2), ("cy", 3)] {
                    try await world.post(client, EngineWorld.message(from: sender, to: "bo", id: id))
                }
                try await world.drain()
                let before = world.apns.received.count
                let fcmBefore = world.fcm.messages.count
                let hooksBefore = world.hook.envelopes.count

                // Bo reads Ana's conversation on the laptop's session: the iPad and the Android phone are cleared.
                try await world.post(
                    client,
                    ["type": "read", "uid": "bo", "conversationId": "ana_user_bo", "messageId": "2", "sessionId": laptopSession]
                )
                try await world.drain()
                let cleared = world.apnsPayloads(to: ipad).last
                #expect(cleared?.headers["apns-push-type"] == "background" && cleared?.headers["apns-priority"] == "5")
                #expect(cleared?.payload["aps"]["content-available"].int == 1 && cleared?.payload["aps"]["badge"].int == 1, "cy's message is left")
                #expect(cleared?.payload["aps"]["alert"] == .null && cleared?.payload["aps"]["sound"] == .null)
                #expect(cleared?.payload["herald"]["type"].string == "clear" && cleared?.payload["herald"]["conversationId"].string == "ana_user_bo")
                #expect(cleared?.payload["herald"]["upToMessageId"].string == "2")
                #expect(world.apns.received.count == before + 1, "not the reading session's phone")
                #expect(!world.apns.received.suffix(from: before).contains { $0.path.hasSuffix(readingPhone) })
                let newFCM = world.fcm.messages.suffix(from: fcmBefore).map { JSONValue.parsing($0) }
                #expect(newFCM.count == 1 && newFCM.first?["token"].string == android, "not the browser: it must show every push")
                #expect(newFCM.first?["data"].stringObject == ["type": "clear", "conversationId": "ana_user_bo", "upToMessageId": "2"])
                #expect(newFCM.first?["notification"] == .null && newFCM.first?["android"]["priority"].string == "NORMAL")
                #expect(!newFCM.contains { $0["token"].string == browser })
                let hook = try #require(world.hook.envelopes.suffix(from: hooksBefore).first)
                #expect(hook["trigger"].string == "notification-cleared" && hook["data"]["to"]["uid"].string == "bo")
                #expect(hook["data"]["notificationDetails"]["conversationId"].string == "ana_user_bo")

                // Two more reads within clearCoalesceSeconds (5): nothing at once; one clear, the last read's, when the window closes.
                try await world.post(client, ["type": "read", "uid": "bo", "conversationId": "ana_user_bo", "messageId": "4"])
                try await world.post(client, ["type": "read", "uid": "bo", "conversationId": "ana_user_bo", "messageId": "5"])
                try await world.drain()
                #expect(world.apnsPayloads(to: ipad).count == 3 + 1, "three alerts, one clear")
                world.clock.advance(by: 6)
                try await world.drain()
                let coalesced = world.apnsPayloads(to: ipad)
                #expect(coalesced.count == 5 && coalesced.last?.payload["herald"]["upToMessageId"].string == "5")
                #expect(world.apnsPayloads(to: readingPhone).count == 4, "the later reads named no session: every device is cleared")
                world.clock.advance(by: 6)
                try await world.drain()
                #expect(world.apnsPayloads(to: ipad).count == 5, "an empty window sends nothing")

                // With clearOnRead off, a read moves only the unread counts.
                _ = try await client.request(.patch, "/v1/push/settings", bearer: world.apiKey, json: ["clearOnRead": false])
                world.clock.advance(by: 6)
                try await world.post(client, ["type": "read", "uid": "bo", "conversationId": "cy_user_bo"])
                try await world.drain()
                #expect(world.apnsPayloads(to: ipad).count == 5)
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func editsReplaceAndDeletesRetractOnlyWhatWasShown(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.addWebhook()
            try await world.herald.run { client in
                let (_, bo) = try await world.device(client, "bo", "apns_ios_device")
                let (_, boBrowser) = try await world.device(client, "bo", "fcm_web")
                let (_, cy) = try await world.device(client, "cy", "fcm_android")
                let (deeSession, dee) = try await world.device(client, "dee", "apns_ios_device")
                _ = try await client.request(.patch, "/v1/me/preferences", bearer: deeSession, json: ["groupMentionsOnly": true])
                try await client.request(.put, "/v1/users/ana", bearer: world.apiKey, json: ["name": "Ana"])
                try await client.request(.put, "/v1/groups/team", bearer: world.apiKey, json: ["name": "Team"])
                try await client.request(.post, "/v1/groups/team/members", bearer: world.apiKey, json: ["uids": ["ana", "bo", "cy", "dee"]])
                try await world.post(client, EngineWorld.message(from: "ana", to: "team", text: "draft", id: 500, receiverType: "group"))
                try await world.drain()
                #expect(world.apnsPayloads(to: dee).isEmpty, "mentions only: dee was not alerted")

                // An edit replaces the shown alert (same collapse id and tag), and skips dee.
                var edit = EngineWorld.message(from: "ana", to: "team", text: "final", id: 500, receiverType: "group")
                edit["action"] = "edited"
                let edited = try await world.post(client, edit)
                try await world.drain()
                let replaced = try #require(world.apnsPayloads(to: bo).last)
                #expect(replaced.headers["apns-collapse-id"] == "500" && replaced.payload["aps"]["alert"]["body"].string == "Ana: final")
                let editLog = try await world.deliveries(client, edited[0])
                #expect(editLog.contains { $0["uid"] as? String == "dee" && $0["reason"] as? String == "not_alerted" })

                // A delete retracts it from those who were shown it: silent, not to browsers; webhooks hear of it.
                let fcmBefore = world.fcm.messages.count
                var delete = EngineWorld.message(from: "ana", to: "team", text: "final", id: 500, receiverType: "group")
                delete["action"] = "deleted"
                let deleted = try await world.post(client, delete)
                try await world.drain()
                let retract = try #require(world.apnsPayloads(to: bo).last)
                #expect(retract.headers["apns-push-type"] == "background" && retract.headers["apns-priority"] == "5")
                #expect(retract.payload["aps"]["content-available"].int == 1 && retract.payload["aps"]["alert"] == .null)
                #expect(
                    retract.payload["herald"].object == [
                        "type": .string("retract"), "messageId": .string("500"), "conversationId": .string("group_team"),
                    ]
                )
                let newFCM = world.fcm.messages.suffix(from: fcmBefore).map { JSONValue.parsing($0) }
                #expect(newFCM.map { $0["token"].string } == [cy], "cy's Android phone, not bo's browser")
                #expect(newFCM.first?["data"].stringObject == ["type": "retract", "messageId": "500", "conversationId": "group_team"])
                #expect(!newFCM.contains { $0["token"].string == boBrowser })
                #expect(world.apnsPayloads(to: dee).isEmpty)
                #expect(world.hook.envelopes.contains { $0["trigger"].string == "notification-retracted" && $0["data"]["to"]["uid"].string == "cy" })
                let log = try await world.deliveries(client, deleted[0])
                #expect(log.contains { $0["uid"] as? String == "dee" && $0["reason"] as? String == "not_alerted" })
                #expect(log.filter { $0["uid"] as? String == "bo" && $0["channel"] as? String == "push" }.count == 1)
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func aBurstIsOneSummaryThatReplacesTheFirstAlert(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                _ = try await client.request(.patch, "/v1/push/settings", bearer: world.apiKey, json: ["burstWindowSeconds": 60])
                let (_, phone) = try await world.device(client, "bo", "apns_ios_device", locale: "fr-FR")
                let (_, android) = try await world.device(client, "bo", "fcm_android", locale: "fr-FR")
                try await client.request(.put, "/v1/users/ana", bearer: world.apiKey, json: ["name": "Ana"])
                var ids: [String] = []
                for id in 101...104 {
                    ids += try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "part \(id)", id: id))
                    try await world.drain()
                    world.clock.advance(by: 5)
                }
                #expect(world.apnsPayloads(to: phone).count == 1, "the first alerts; the next three wait")
                let held = try await world.deliveries(client, ids[2])
                #expect(held.map { $0["status"] as? String } == ["held"], "\(held)")

                world.clock.advance(by: 50)
                try await world.drain()
                let pushes = world.apnsPayloads(to: phone)
                let summary = try #require(pushes.last)
                #expect(pushes.count == 2 && summary.headers["apns-collapse-id"] == "101", "it replaces the first alert")
                #expect(summary.payload["aps"]["alert"]["title"].string == "Ana")
                #expect(summary.payload["aps"]["alert"]["body"].string == "4 nouveaux messages", "in bo's language")
                #expect(summary.payload["aps"]["badge"].int == 4 && summary.payload["aps"]["thread-id"].string == "ana_user_bo")
                #expect(summary.payload["tag"].string == "104", "it tells of the last message")
                let fcm = try #require(world.fcm.messages.map { JSONValue.parsing($0) }.last { $0["token"].string == android })
                #expect(fcm["android"]["collapse_key"].string == "101" && fcm["data"]["body"].string == "4 nouveaux messages")
                let log = try await world.deliveries(client, ids[3])
                #expect(Set(log.compactMap { $0["status"] as? String }) == ["held", "delivered"], "\(log)")

                // The window opens again after the summary; a read in it drops what it held.
                try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "one more", id: 105))
                try await world.drain()
                #expect(world.apnsPayloads(to: phone).count == 2)
                try await world.post(client, ["type": "read", "uid": "bo", "conversationId": "ana_user_bo"])
                try await world.drain()
                world.clock.advance(by: 120)
                try await world.drain()
                let after = world.apnsPayloads(to: phone)
                #expect(after.count == 3 && after.last?.payload["herald"]["type"].string == "clear", "the read's clear, and no summary")
                #expect(!after.contains { $0.payload["aps"]["alert"]["body"].string?.hasPrefix("2 ") == true })

                // After the read a message alerts at once again.
                try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "hello again", id: 106))
                try await world.drain()
                #expect(world.apnsPayloads(to: phone).last?.payload["aps"]["alert"]["body"].string == "hello again")
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func devicesReportPushesReceivedAndOpened(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let (bo, _) = try await world.device(client, "bo", "apns_ios_device")
                let (cy, _) = try await world.device(client, "cy", "apns_ios_device")
                let ids = try await world.post(client, EngineWorld.message(from: "ana", to: "bo", id: 77))
                try await world.drain()
                let receipts: [[String: Any]] = [
                    ["type": "received", "messageId": "77", "at": "2026-11-24T10:00:00Z"], ["type": "opened", "messageId": "77"],
                ]
                // Another user's receipt for the message changes nothing of bo's.
                let stranger = try await client.request(.post, "/v1/me/receipts", bearer: cy, json: ["receipts": receipts])
                #expect(stranger.status == 200 && stranger.body["recorded"].int == 0, "\(stranger.text)")
                let first = try await client.request(.post, "/v1/me/receipts", bearer: bo, json: ["receipts": receipts])
                #expect(first.status == 200 && first.body["recorded"].int == 2, "\(first.text)")
                let again = try await client.request(.post, "/v1/me/receipts", bearer: bo, json: ["receipts": receipts])
                #expect(again.body["recorded"].int == 0, "idempotent")

                let log = try await world.log(client, ids[0])
                #expect(log.body["counts"]["received"].int == 1 && log.body["counts"]["opened"].int == 1 && log.body["counts"]["delivered"].int == 1)
                let row = try #require(log.body["deliveries"].array?.first)
                #expect(row["receivedAt"].string == "2026-11-24T10:00:00.000Z" && row["openedAt"].string != nil, "\(row)")

                for (body, field) in [
                    (["receipts": [["type": "seen", "messageId": "77"]]], "receipts[0].type"),
                    (["receipts": [["type": "opened"]]], "receipts[0]"),
                    (["receipts": [["type": "opened", "messageId": "77", "pushNotificationId": "p"]]], "receipts[0]"),
                ] as [([String: Any], String)] {
                    let refused = try await client.request(.post, "/v1/me/receipts", bearer: bo, json: body)
                    #expect([400, 422].contains(refused.status), "\(body): \(refused.text)")
                    if refused.status == 422 { #expect(refused.errorDetails?["field"] == field, "\(refused.text)") }
                }
                let tooMany = try await client.request(
                    .post,
                    "/v1/me/receipts",
                    bearer: bo,
                    json: ["receipts": Array(repeating: ["type": "received", "messageId": "77"], count: 101)]
                )
                #expect([400, 422].contains(tooMany.status))
            }
        }
    }
}
