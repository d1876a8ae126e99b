import Foundation
import HeraldModels
import HeraldTestSupport
import Testing

/// The Matrix Push Gateway API end to end, on both back-ends: app ids bound to the stand-ins'
/// providers, notifies as a homeserver posts them, what APNs and FCM receive, what is rejected,
/// and a homeserver's retry that does not alert twice.
@Suite("Matrix push gateway")
struct MatrixGatewayTests {
    static func notify(
        _ client: HeraldClient,
        _ devices: [[String: Any]],
        event: String = "$e1",
        extra: [String: Any] = [:]
    ) async throws
        -> JSONResponse
    {
        var notification: [String: Any] = [
            "event_id": event, "room_id": "!room:example.org", "type": "m.room.message", "sender": "@ana:example.org",
            "sender_display_name": "Ana", "room_name": "Mission Control", "prio": "high",
            "content": ["msgtype": "m.text", "body": "I'm floating in a most peculiar way."], "counts": ["unread": 2], "devices": devices,
        ]
        notification.merge(extra) { $1 }
        return try await client.request(.post, "/_matrix/push/v1/notify", json: ["notification": notification])
    }

    @Test(arguments: TestBackend.available)
    func notifiesReachTheProvidersAsSygnalWouldSendThemAndRetriesAlertOnce(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend, workers: true) { world in
            try await world.herald.run { client in
                // Off until an app binds an app id.
                let off = try await Self.notify(client, [["app_id": "im.vector.app.ios.prod", "pushkey": "AAAA"]])
                #expect(off.status == 404 && off.body["errcode"].string == "M_UNRECOGNIZED", "\(off.text)")

                let ios = try await client.request(
                    .put,
                    "/v1/matrix/app-ids/im.vector.app.ios.*",
                    bearer: world.apiKey,
                    json: ["providerId": "apns-1"]
                )
                #expect(
                    ios.status == 200 && ios.body["apnsPushType"].string == "alert" && ios.body["convertDeviceTokenToHex"].bool == true,
                    "\(ios.text)"
                )
                let android = try await client.request(
                    .put,
                    "/v1/matrix/app-ids/im.vector.app.android",
                    bearer: world.apiKey,
                    json: ["providerId": "fcm-1", "fcmOptions": ["android": ["notification": ["channel_id": "matrix"]]]]
                )
                #expect(android.status == 200, "\(android.text)")
                let wrong = try await client.request(
                    .put,
                    "/v1/matrix/app-ids/im.vector.app.web",
                    bearer: world.apiKey,
                    json: ["providerId": "fcm-1", "apnsPushType": "voip"]
                )
                #expect(wrong.status == 422 && wrong.errorDetails?["field"] == "apnsPushType", "\(wrong.text)")
                let other = try await world.herald.makeApp(name: "Other")
                try await client.addStandardProviders(apiKey: other.apiKey)
                let taken = try await client.request(
                    .put,
                    "/v1/matrix/app-ids/im.vector.app.android",
                    bearer: other.apiKey,
                    json: ["providerId": "fcm-1"]
                )
                #expect(taken.status == 409 && taken.errorCode == "matrix_app_id_taken", "\(taken.text)")
                let listed = try await client.request(.get, "/v1/matrix/app-ids", bearer: world.apiKey)
                #expect(listed.body["data"].array?.compactMap { $0["matrixAppId"].string } == ["im.vector.app.android", "im.vector.app.ios.*"])

                // UnifiedPush discovery, and Matrix's errors on the gateway's paths.
                let discovery = try await client.request(.get, "/_matrix/push/v1/notify")
                #expect(discovery.status == 200 && discovery.body["unifiedpush"]["gateway"].string == "matrix")
                let method = try await client.request(.put, "/_matrix/push/v1/notify", json: [String: Any]())
                #expect(method.status == 405 && method.body["errcode"].string == "M_UNRECOGNIZED", "\(method.text)")
                let path = try await client.request(.get, "/_matrix/push/v2/notify")
                #expect(path.status == 404 && path.body["errcode"].string == "M_UNRECOGNIZED", "\(path.text)")
                let plainText = try await client.request(.post, "/_matrix/push/v1/notify", raw: "hello", headers: [.contentType: "text/plain"])
                #expect([400, 415].contains(plainText.status) && plainText.body["errcode"].string == "M_NOT_JSON", "\(plainText.text)")
                let notJSON = try await client.request(.post, "/_matrix/push/v1/notify", raw: "{nope")
                #expect(notJSON.status == 400 && notJSON.body["errcode"].string == "M_NOT_JSON", "\(notJSON.text)")
                let noDevices = try await client.request(.post, "/_matrix/push/v1/notify", json: ["notification": ["devices": [Any]()]])
                #expect(noDevices.status == 400 && noDevices.body["errcode"].string == "M_BAD_JSON", "\(noDevices.text)")

                // One notify, three devices: an iPhone (base64 pushkey), an Android phone, an app nobody bound.
                let token = Data((0..<32).map { UInt8($0) })
                let iPhone = token.base64EncodedString()
                let hex = token.map { String(format: "%02x", $0) }.joined()
                let phone = Fixtures.fcmToken()
                let devices: [[String: Any]] = [
                    ["app_id": "im.vector.app.ios.prod", "pushkey": iPhone, "pushkey_ts": 1, "data": [String: Any]()],
                    ["app_id": "im.vector.app.android", "pushkey": phone, "data": ["default_payload": ["cs": "x"]]],
                    ["app_id": "org.nobody.app", "pushkey": "nobody-key"],
                ]
                let first = try await Self.notify(client, devices)
                #expect(first.status == 200 && first.body["rejected"].strings == ["nobody-key"], "\(first.text)")
                let apns = world.apnsPayloads(to: hex)
                #expect(apns.count == 1)
                #expect(apns.first?.payload["aps"]["alert"]["loc-key"].string == "MSG_FROM_USER_IN_ROOM_WITH_CONTENT")
                #expect(
                    apns.first?.payload["aps"]["alert"]["loc-args"].strings == ["Ana", "Mission Control", "I'm floating in a most peculiar way."]
                )
                #expect(apns.first?.payload["aps"]["badge"].int == 2 && apns.first?.payload["event_id"].string == "$e1")
                let fcm = world.fcm.messages.map { JSONValue.parsing($0) }.filter { $0["token"].string == phone }
                #expect(fcm.count == 1)
                #expect(fcm.first?["data"]["content_body"].string == "I'm floating in a most peculiar way." && fcm.first?["data"]["cs"].string == "x")
                #expect(fcm.first?["data"]["unread"].string == "2" && fcm.first?["data"]["prio"].string == "high")
                #expect(fcm.first?["android"]["notification"]["channel_id"].string == "matrix")

                // The homeserver retries the same notify: nothing alerts twice.
                let again = try await Self.notify(client, devices)
                #expect(again.status == 200 && again.body["rejected"].strings == ["nobody-key"])
                #expect(
                    world.apnsPayloads(to: hex).count == 1 && world.fcm.messages.filter { JSONValue.parsing($0)["token"].string == phone }.count == 1
                )

                // APNs says the token is gone: rejected now, and at once next time (not sent again).
                let deadToken = Data((0..<32).map { UInt8(255 - $0) })
                let deadHex = deadToken.map { String(format: "%02x", $0) }.joined()
                world.apns.script(deviceToken: deadHex, .init(status: 410, reason: "Unregistered"))
                let dead = [["app_id": "im.vector.app.ios.prod", "pushkey": deadToken.base64EncodedString()]]
                let gone = try await Self.notify(client, dead, event: "$e2")
                #expect(gone.body["rejected"].strings == [deadToken.base64EncodedString()], "\(gone.text)")
                let sentBefore = world.apns.received.count
                let next = try await Self.notify(client, dead, event: "$e3")
                #expect(next.body["rejected"].strings == [deadToken.base64EncodedString()] && world.apns.received.count == sentBefore)

                // Every device decision is in the delivery log.
                let events = try await client.request(.get, "/v1/events?limit=50", bearer: world.apiKey)
                let matrixEvents = events.body["data"].array?.filter { $0["type"].string == "matrix" } ?? []
                #expect(matrixEvents.count == 3, "\(events.text)")
            }
        }
    }
}
