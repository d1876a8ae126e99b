import Foundation
import HeraldCore
import HeraldModels
import Testing

/// What a browser or UnifiedPush app receives: the Notification API's shape, one record's worth
/// at most, the urgency and topic the push service acts on.
@Suite("Web Push payloads")
struct WebPushPayloadTests {
    static func context(
        _ event: JSONObject,
        settings: PushSettings = PushSettings(),
        style: PushStyle = .plain,
        badge: Int? = nil
    ) throws -> PushContext {
        let sentAt = Date(timeIntervalSince1970: 1_790_000_000)
        let parsed = try EventParser.parse(.object(event), now: sentAt)
        let app = App(id: "app", name: "Acme", region: "eu", settings: settings, createdAt: sentAt)
        let resolved = ResolvedEvent.resolve(
            ChatEvent(id: "evt_1", appId: app.id, clientId: nil, receivedAt: sentAt, body: parsed.body),
            app: app,
            users: [:],
            group: nil
        )
        let template = PushTemplate.pick(resolved.templateType, resolved.receiverType, locale: nil, from: [], format: settings.payloadFormat)
        let text = RenderedText.render(template, resolved, hideText: settings.hideMessageText)
        return PushContext(
            event: resolved,
            text: text,
            settings: settings,
            badge: badge,
            expiresAt: sentAt.addingTimeInterval(600),
            now: sentAt,
            style: style
        )
    }

    /// The payload as a dictionary (`JSONSerialization`: not Herald's own reader).
    static func json(_ bytes: [UInt8]) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }

    static func message(_ text: String, mentions: [String] = []) -> JSONObject {
        var message: JSONObject = [
            "id": .number(7), "text": .string(text), "sender": .string("ana"), "receiver": .string("bo"), "receiverType": .string("user"),
        ]
        if !mentions.isEmpty { message["mentions"] = .array(mentions.map(JSONValue.string)) }
        return ["type": .string("message"), "message": .object(message)]
    }

    @Test
    func anAlertIsShapedForShowNotification() throws {
        let message = PushPayloads.webPush(try Self.context(Self.message("hello there"), badge: 3), endpoint: "https://push.example/1", route: .alert)
        let json = Self.json(message.payload)
        let data = json["data"] as? [String: String]
        #expect(json["body"] as? String == "hello there" && (json["title"] as? String)?.isEmpty == false)
        #expect(json["tag"] as? String == "ana_user_bo" && json["renotify"] as? Bool == true && json["appBadge"] as? Int == 3)
        #expect(json["timestamp"] as? Double == 1_790_000_000_000)
        #expect(data?["conversationId"] == "ana_user_bo" && data?["type"] == "chat")
        #expect(message.ttlSeconds == 600 && message.urgency == .normal && message.keys == nil)
        #expect(message.topic == WebPushMessage.topic(conversationId: "ana_user_bo"))
    }

    @Test
    func topicsAreShortOpaqueAndOnePerConversation() {
        let a = WebPushMessage.topic(conversationId: "ana_user_bo")
        #expect(a?.count == 32 && a == WebPushMessage.topic(conversationId: "ana_user_bo"))
        #expect(a != WebPushMessage.topic(conversationId: "group_team"))
        #expect(a?.contains("ana") == false, "the push service does not learn the conversation")
        #expect(a?.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } == true)
        #expect(WebPushMessage.topic(conversationId: "") == nil)
    }

    @Test
    func mentionsAndCallsAreUrgentAndBackgroundUpdatesAreNot() throws {
        var mention = PushStyle.plain
        mention.mentioned = true
        let mentioned = PushPayloads.webPush(
            try Self.context(Self.message("@bo look"), style: mention),
            endpoint: "https://p.example/1",
            route: .alert
        )
        #expect(mentioned.urgency == .high)
        let background = PushPayloads.webPush(try Self.context(Self.message("x")), endpoint: "https://p.example/1", route: .background)
        #expect(background.urgency == .normal && background.topic == nil)
        let json = Self.json(background.payload)
        #expect(json["title"] == nil && (json["data"] as? [String: String])?["conversationId"] == "ana_user_bo")
    }

    @Test
    func idOnlyShowsNewMessageAndCarriesTheIds() throws {
        let style = PushStyle(contentMode: .idOnly)
        let message = PushPayloads.webPush(
            try Self.context(Self.message("secret plans"), style: style),
            endpoint: "https://p.example/1",
            route: .alert
        )
        let text = String(decoding: message.payload, as: UTF8.self)
        #expect(!text.contains("secret plans"))
        let json = Self.json(message.payload)
        #expect(json["title"] as? String == PushPayloads.newMessageText && (json["data"] as? [String: String])?["messageId"] == "7")
    }

    @Test
    func aLongMessageIsCutToOneRecord() throws {
        let long = String(repeating: "ünïcødé ", count: 1_200)
        let message = PushPayloads.webPush(try Self.context(Self.message(long)), endpoint: "https://p.example/1", route: .alert)
        #expect(message.payload.count <= WebPushMessage.maxPlaintext)
        let json = Self.json(message.payload)
        #expect((json["data"] as? [String: String])?["message"] == nil, "the message object goes first")
        let body = try #require(json["body"] as? String)
        #expect(body.hasSuffix("…") && long.hasPrefix(String(body.dropLast())) && body.count > 500)
        // And it seals into a body a push service must take (RFC 8291 §4: 4096 bytes).
        var sealed = message
        // RFC 8291 Appendix A's user agent.
        sealed.keys = try PushEncryptionKeys(
            p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
            auth: "BTBZMqHH6r4Tts7J_aSIgg"
        )
        #expect(try sealed.body().count <= 4096)
    }

    @Test
    func subjectsMustBeMailtoOrHTTPS() throws {
        for good in ["mailto:push@acme.test", "MAILTO:ops@acme.co.uk", "https://acme.test/contact", "https://acme.test"] {
            #expect(throws: Never.self) { try WebPushSettings.checkSubject(good) }
        }
        for bad in ["push@acme.test", "mailto:", "mailto:nobody", "http://acme.test", "https://", "mailto:a b@acme.test", ""] {
            #expect(throws: HeraldError.self, "\(bad)") { try WebPushSettings.checkSubject(bad) }
        }
    }

    @Test
    func vapidKeysImportFromRawAndPEMAndKeepTheirPublicKey() throws {
        let key = VAPIDKey.generate().privateKey
        let raw = try VAPIDKey(importing: Base64URL.encode(key.rawRepresentation))
        let pem = try VAPIDKey(importing: key.pemRepresentation)
        let publicKey = Base64URL.encode(key.publicKey.x963Representation)
        #expect(raw.publicKeyText == publicKey && pem.publicKeyText == publicKey)
        #expect(try VAPIDKey(importing: raw.storedText).publicKeyText == publicKey)
        #expect(throws: HeraldError.self) { try VAPIDKey(importing: "c2hvcnQ") }
        #expect(throws: HeraldError.self) { try VAPIDKey(importing: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----") }
        #expect(VAPIDKey.generate().publicKeyText != VAPIDKey.generate().publicKeyText)
    }
}
