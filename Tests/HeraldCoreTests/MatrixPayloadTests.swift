import Foundation
import HeraldCore
import HeraldModels
import Testing

/// Sygnal 0.17's payloads, pinned: what Element X (written against Sygnal) reads.
@Suite("Matrix push gateway payloads")
struct MatrixPayloadTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func push(
        _ notification: [String: JSONValue],
        device: JSONObject = [:],
        platform: PushPlatform,
        binding: (inout MatrixAppBinding) -> Void = { _ in }
    )
        throws -> MatrixPush
    {
        var n = notification
        var entry: JSONObject = ["app_id": .string("im.vector.app.ios"), "pushkey": .string("AAECAwQF")]
        entry.merge(device) { $1 }
        n["devices"] = .array([.object(entry)])
        let parsed = try MatrixNotification.parse(.object(["notification": .object(n)]))
        var bound = MatrixAppBinding(pattern: "im.vector.app.*", appId: "app", providerId: "p", createdAt: now, updatedAt: now)
        binding(&bound)
        return MatrixPush(notification: parsed, device: parsed.devices[0], binding: bound, platform: platform)
    }

    static let message: [String: JSONValue] = [
        "event_id": .string("$ev"), "room_id": .string("!room:example.org"), "type": .string("m.room.message"),
        "sender": .string("@ana:example.org"), "sender_display_name": .string("Ana"), "room_name": .string("Mission Control"),
        "prio": .string("high"), "content": .object(["msgtype": .string("m.text"), "body": .string("hello")]),
        "counts": .object(["unread": .number(2), "missed_calls": .number(1)]),
    ]

    static func json(_ object: JSONObject) -> String { String(decoding: JSONValue.object(object).jsonBytes(sortedKeys: true), as: UTF8.self) }

    @Test
    func apnsFullAlertIsSygnals() throws {
        let push = try #require(MatrixPayloads.apns(try Self.push(Self.message, platform: .apnsIOSDevice)))
        #expect(
            Self.json(push.payload)
                == #"{"aps":{"alert":{"loc-args":["Ana","Mission Control","hello"],"loc-key":"MSG_FROM_USER_IN_ROOM_WITH_CONTENT"},"badge":3},"event_id":"$ev","room_id":"!room:example.org"}"#
        )
        #expect(push.deviceToken == "000102030405" && push.headers.priority == .immediately && push.headers.kind == .alert)
        var low = Self.message
        low["prio"] = .string("low")
        low["room_name"] = nil
        low["content"] = .object(["msgtype": .string("m.emote"), "body": .string("waves")])
        let emote = try #require(MatrixPayloads.apns(try Self.push(low, platform: .apnsIOSDevice) { $0.convertDeviceTokenToHex = false }))
        #expect(Self.json(emote.payload).contains(#""loc-args":["Ana","waves"],"loc-key":"ACTION_FROM_USER""#))
        #expect(emote.headers.priority == .consideringDevicePower && emote.deviceToken == "AAECAwQF")
    }

    @Test
    func apnsEventIdOnlyAndBadgeOnlyAreSygnals() throws {
        let defaultPayload: JSONValue = .object([
            "aps": .object(["mutable-content": .number(1), "alert": .object(["loc-key": .string("Notification")])])
        ])
        let idOnly: [String: JSONValue] = [
            "event_id": .string("$ev"), "room_id": .string("!r:x"), "counts": .object(["unread": .number(2)]), "prio": .string("high"),
        ]
        let push = try #require(
            MatrixPayloads.apns(try Self.push(idOnly, device: ["data": .object(["default_payload": defaultPayload])], platform: .apnsIOSDevice))
        )
        #expect(
            Self.json(push.payload)
                == #"{"aps":{"alert":{"loc-key":"Notification"},"mutable-content":1},"event_id":"$ev","room_id":"!r:x","unread_count":2}"#
        )
        let bare = try #require(MatrixPayloads.apns(try Self.push(idOnly, platform: .apnsIOSDevice)))
        #expect(bare.payload["aps"] == nil, "event_id_only without a default payload carries no aps")
        let badge = try #require(MatrixPayloads.apns(try Self.push(["counts": .object(["unread": .number(0)])], platform: .apnsIOSDevice)))
        #expect(Self.json(badge.payload) == #"{"aps":{"badge":0}}"#)
        #expect(MatrixPayloads.apns(try Self.push(["type": .string("m.room.member")], platform: .apnsIOSDevice)) == nil, "nothing to show or count")
    }

    @Test
    func apnsInvitesCallsAndImages() throws {
        var invite = Self.message
        invite["type"] = .string("m.room.member")
        invite["membership"] = .string("invite")
        invite["user_is_target"] = .bool(true)
        let invited = try #require(MatrixPayloads.apns(try Self.push(invite, platform: .apnsIOSDevice)))
        #expect(Self.json(invited.payload).contains(#""loc-args":["Ana","Mission Control"],"loc-key":"USER_INVITE_TO_NAMED_ROOM""#))
        var call = Self.message
        call["type"] = .string("m.call.invite")
        call["content"] = .object(["offer": .object(["sdp": .string("v=0\r\nm=audio 9\r\nm=video 9\r\n")])])
        #expect(Self.json(try #require(MatrixPayloads.apns(try Self.push(call, platform: .apnsIOSDevice))).payload).contains("VIDEO_CALL_FROM_USER"))
        var image = Self.message
        image["room_name"] = nil
        image["content"] = .object(["msgtype": .string("m.image"), "body": .string("cat.png")])
        #expect(
            Self.json(try #require(MatrixPayloads.apns(try Self.push(image, platform: .apnsIOSDevice))).payload).contains(
                #"["Ana","cat.png"],"loc-key":"IMAGE_FROM_USER""#
            )
        )
    }

    @Test
    func apnsBodiesAreCutToSygnalsLimitFromTheLongestArgument() throws {
        var long = Self.message
        long["content"] = .object(["msgtype": .string("m.text"), "body": .string(String(repeating: "é", count: 5_000))])
        let push = try #require(MatrixPayloads.apns(try Self.push(long, platform: .apnsIOSDevice)))
        let size = MatrixPayloads.pythonSize(.object(push.payload))
        #expect(size <= 4_096 && size > 4_090, "one character at a time, as Sygnal, until it fits: \(size)")
        guard case .array(let args)? = push.payload["aps"]?.objectValue?["alert"]?.objectValue?["loc-args"] else {
            Issue.record("no loc-args")
            return
        }
        #expect(args.count == 3 && args[0] == .string("Ana") && args[1] == .string("Mission Control"), "only the longest is cut")
    }

    @Test
    func fcmDataIsSygnalsV1Message() throws {
        let push = try #require(
            MatrixPayloads.fcm(
                try Self.push(Self.message, device: ["data": .object(["default_payload": .object(["cs": .string("x")])])], platform: .fcmAndroid) {
                    $0.fcmOptions = ["android": .object(["notification": .object(["channel_id": .string("matrix")])])]
                }
            )
        )
        #expect(
            push.data == [
                "cs": "x", "event_id": "$ev", "type": "m.room.message", "sender": "@ana:example.org", "room_name": "Mission Control",
                "sender_display_name": "Ana", "room_id": "!room:example.org", "content_msgtype": "m.text", "content_body": "hello",
                "prio": "high", "unread": "2", "missed_calls": "1",
            ]
        )
        let android = push.message["android"]?.objectValue
        #expect(android?["priority"] == .string("HIGH") && android?["notification"]?.objectValue?["channel_id"] == .string("matrix"))
        // Read everything: zero counts, no room, no event → nothing is sent.
        #expect(MatrixPayloads.fcm(try Self.push(["counts": .object(["unread": .number(0)])], platform: .fcmAndroid)) == nil)
        var long = Self.message
        long["content"] = .object(["msgtype": .string("m.text"), "body": .string(String(repeating: "ü", count: 600))])
        let clipped = try #require(MatrixPayloads.fcm(try Self.push(long, platform: .fcmAndroid))?.data["content_body"])
        #expect(clipped.utf8.count <= 1_024 && clipped.hasSuffix("…"))
    }

    @Test
    func webPushPayloadTopicAndUnifiedPushAreSygnals() throws {
        let auth = "BTBZMqHH6r4Tts7J_aSIgg"
        let p256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        var n = Self.message
        n["content"] = .object(["msgtype": .string("m.text"), "body": .string("hi"), "formatted_body": .string("<b>hi</b>")])
        let device: JSONObject = [
            "pushkey": .string(p256dh),
            "data": .object(["endpoint": .string("https://push.example/abc"), "auth": .string(auth), "only_last_per_room": .bool(true)]),
        ]
        let message = try #require(MatrixPayloads.webPush(try Self.push(n, device: device, platform: .webPush)))
        #expect(message.endpoint == "https://push.example/abc" && message.keys?.auth == Array(Base64URL.decode(auth)!))
        #expect(message.ttlSeconds == 900 && message.urgency == .normal)
        // Sygnal: urlsafe_b64encode(blake2s(room_id, digest_size=22)), padding kept.
        #expect(message.topic == "wMM9sx0_4uCn3aAmE6newKcNvYOuTQ==")
        let payload = try #require(try? JSONValue(jsonBytes: message.payload)).objectValue ?? [:]
        #expect(payload["content"] == .object(["msgtype": .string("m.text"), "body": .string("hi")]))
        #expect(payload["unread"] == .number(2) && payload["room_name"] == .string("Mission Control") && payload["prio"] == nil)
        // A UnifiedPush pushkey gets the notify itself.
        let up = try #require(
            MatrixPayloads.webPush(try Self.push(Self.message, device: ["pushkey": .string("https://ntfy.example/upABC")], platform: .unifiedPush))
        )
        let body = try #require(try? JSONValue(jsonBytes: up.payload)).objectValue?["notification"]?.objectValue
        #expect(up.endpoint == "https://ntfy.example/upABC" && up.keys == nil)
        #expect(body?["event_id"] == .string("$ev") && body?["counts"]?.objectValue?["unread"] == .number(2))
    }

    @Test
    func blake2sMatchesRFC7693() {
        let hex = BLAKE2s.hash(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(hex == "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982")
        #expect(BLAKE2s.hash(Array(repeating: 0x61, count: 200), digestLength: 22).count == 22)
    }

    @Test
    func appIdsMatchExactlyThenByTheLongestGlob() {
        let at = Self.now
        let bindings = [
            MatrixAppBinding(pattern: "im.vector.app.*", appId: "a", providerId: "glob", createdAt: at, updatedAt: at),
            MatrixAppBinding(pattern: "im.vector.app.ios.*", appId: "a", providerId: "longer", createdAt: at, updatedAt: at),
            MatrixAppBinding(pattern: "im.vector.app.android", appId: "a", providerId: "exact", createdAt: at, updatedAt: at),
        ]
        #expect(MatrixAppBinding.match("im.vector.app.android", in: bindings)?.providerId == "exact")
        #expect(MatrixAppBinding.match("im.vector.app.ios.prod", in: bindings)?.providerId == "longer")
        #expect(MatrixAppBinding.match("im.vector.app.web", in: bindings)?.providerId == "glob")
        #expect(MatrixAppBinding.match("IM.VECTOR.APP.web", in: bindings) == nil, "case-sensitive, as Sygnal")
        #expect(Glob.matches("a?c", "abc") && !Glob.matches("a?c", "ac") && Glob.matches("a*?", "ab") && !Glob.matches("a*?", "a"))
    }

    @Test
    func notifiesAreCheckedNamingTheField() {
        #expect(throws: HeraldError.self) { try MatrixNotification.parse(.object([:])) }
        #expect(throws: HeraldError.self) { try MatrixNotification.parse(.object(["notification": .object(["devices": .array([])])])) }
        do {
            _ = try MatrixNotification.parse(.object(["notification": .object(["devices": .array([.object(["app_id": .string("x")])])])]))
            Issue.record("a device without a pushkey was accepted")
        } catch let error as HeraldError {
            #expect(error.details["field"] == "notification.devices[0].pushkey")
        } catch {
            Issue.record("\(error)")
        }
    }
}
