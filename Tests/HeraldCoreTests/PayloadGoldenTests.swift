import Foundation
import HeraldCore
import HeraldFixtures
import HeraldModels
import Testing

/// Every documented payload, built by Herald's payload builders from the fixture's event, compared
/// field by field with the payload the providers' documentation shows (`Tests/HeraldFixtures/Payloads`).
@Suite("Golden payloads (CometChat, Sendbird and Kandy)")
struct PayloadGoldenTests {
    static let fixtures = (try? PayloadFixtures.all()) ?? []

    @Test func everyFixtureLoads() {
        #expect(Self.fixtures.count >= 28)
    }

    @Test(arguments: fixtures.map(\.name))
    func builtPayloadEqualsTheSeed(_ name: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.name == name })
        let built = try Self.build(fixture)
        guard case .object(let expected) = fixture["expected"] else {
            Issue.record("no expected payload")
            return
        }
        let (kind, want) = try #require(expected.first)
        #expect(kind == built.kind)
        for (field, value) in Self.flatten(want) {
            #expect(Self.flatten(built.json)[field] == value, "\(name): \(field)")
        }
        #expect(Set(Self.flatten(built.json).keys) == Set(Self.flatten(want).keys), "\(name): extra or missing fields")
    }

    /// Builds the push a fixture describes.
    static func build(_ fixture: PayloadFixtures.Fixture) throws -> (kind: String, json: JSONValue) {
        guard case .object(let event)? = fixture["event"], case .object(let appInfo)? = fixture["app"],
            case .string(let recipient)? = fixture["recipient"], case .object(let providerInfo)? = fixture["provider"]
        else {
            throw Failure("fixture \(fixture.name) lacks event, app, recipient or provider")
        }
        let parsed = try EventParser.parse(.object(event), now: Date())
        let sentAt = Self.sentAt(parsed.body)
        var settings = PushSettings()
        if case .object(let overrides)? = fixture["settings"] {
            if case .bool(let value)? = overrides["badge"] { settings.badge = value }
            if case .bool(let value)? = overrides["localizationKeys"] { settings.localizationKeys = value }
            if case .string(let value)? = overrides["payloadFormat"] { settings.payloadFormat = PushSettings.PayloadFormat(rawValue: value)! }
            if case .object(let value)? = overrides["customJSON"] { settings.customJSON = value }
            if case .bool(let value)? = overrides["hideMessageText"] { settings.hideMessageText = value }
        }
        let app = App(id: appInfo["id"]!.text, name: appInfo["name"]!.text, region: appInfo["region"]!.text, settings: settings, createdAt: sentAt)
        let resolved = ResolvedEvent.resolve(
            ChatEvent(id: "evt_golden", appId: app.id, clientId: nil, receivedAt: sentAt, body: parsed.body),
            app: app,
            users: [:],
            group: nil
        )
        let template = PushTemplate.pick(resolved.templateType, resolved.receiverType, locale: nil, from: [], format: settings.payloadFormat)
        let text = RenderedText.render(template, resolved, hideText: settings.hideMessageText)
        let ttl = resolved.isCall ? settings.callTTLSeconds : settings.chatTTLSeconds
        let context = PushContext(
            event: resolved,
            text: text,
            settings: settings,
            badge: fixture["badge"].map { Int($0.text)! },
            unread: fixture["unread"].map { Int($0.text)! },
            expiresAt: sentAt.addingTimeInterval(TimeInterval(ttl)),
            now: sentAt
        )
        var provider = ProviderSettings.sample(ProviderKind(rawValue: providerInfo["kind"]!.text)!)
        if case .bool(let value)? = providerInfo["mutableContent"], case .apns(var apns) = provider {
            apns.mutableContent = value
            provider = .apns(apns)
        }
        if case .bool(let value)? = providerInfo["includeNotificationKey"], case .fcm(var fcm) = provider {
            fcm.includeNotificationKey = value
            provider = .fcm(fcm)
        }
        let route = PushRoute(rawValue: fixture["route"]?.text ?? "alert")!
        switch provider.kind {
        case .custom:
            guard case .webhook(let envelope) = PushPayloads.webhook(context, uid: recipient) else { throw Failure("not a webhook") }
            return ("webhook", try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(envelope)))
        case .apns:
            let push = PushPayloads.apns(context, token: "TOKEN", route: route, provider: provider.apns)
            // The payload as the client sends it: the text written member by member.
            let payload = try JSONValue(jsonBytes: push.payloadBytes)
            #expect(payload == .object(push.payload), "\(fixture.name): the text written differs from the payload")
            var wire: JSONObject = [
                "payload": payload, "pushType": .string(push.headers.kind.rawValue),
                "priority": .number(Double(push.headers.priority.rawValue)),
            ]
            if let collapseId = push.headers.collapseId { wire["collapseId"] = .string(collapseId) }
            return ("apns", .object(wire))
        case .fcm:
            let platform = PushPlatform(rawValue: fixture["platform"]!.text)!
            // The FCM HTTP v1 `message`, as the client puts it on the wire.
            return ("fcm", .object(PushPayloads.fcm(context, token: "TOKEN", platform: platform, route: route, provider: provider).message))
        case .hms:
            throw Failure("no HMS fixture")
        case .webpush:
            throw Failure("no Web Push fixture")
        }
    }

    static func sentAt(_ body: EventBody) -> Date {
        switch body {
        case .message(let m): m.sentAt
        case .call(let c): c.sentAt
        case .reaction(let r): r.sentAt
        case .groupAction(let g): g.sentAt
        case .read(let r): r.readAt
        case .session, .matrix: Date()
        }
    }

    /// Every leaf by its path (`aps.alert.title`); JSON held in strings (FCM data) is compared as JSON.
    static func flatten(_ value: JSONValue, prefix: String = "") -> [String: JSONValue] {
        switch value {
        case .object(let object) where !object.isEmpty:
            return object.reduce(into: [:]) { result, entry in
                result.merge(flatten(entry.value, prefix: prefix.isEmpty ? entry.key : prefix + "." + entry.key)) { $1 }
            }
        case .string(let text) where text.hasPrefix("{") && prefix.contains("data."):
            if let nested = try? JSONValue.parse(text) { return flatten(nested, prefix: prefix + "<json>") }
            return [prefix: value]
        default:
            return [prefix: value]
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
