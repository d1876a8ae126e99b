import Foundation
import HeraldModels

/// `/v1/push/templates`: the app's templates per event type, receiver type and locale, and a
/// preview of what one renders for a sample event.
public struct TemplateManagement: Sendable {
    let apps: any AppRepository
    let templates: any TemplateRepository
    let clock: any WallClock

    public init(apps: any AppRepository, templates: any TemplateRepository, clock: any WallClock = SystemWallClock()) {
        self.apps = apps
        self.templates = templates
        self.clock = clock
    }

    public func list(appId: String, includeBuiltIn: Bool) async throws -> [(template: PushTemplate, builtIn: Bool)] {
        let stored = try await templates.templates(appId: appId)
        var all = stored.map { ($0, false) }
        if includeBuiltIn {
            let format = try await app(appId).settings.payloadFormat
            for eventType in EventKind.notifiable {
                for receiverType in ReceiverType.allCases where eventType != .groupAction || receiverType == .group {
                    if !stored.contains(where: { $0.eventType == eventType && $0.receiverType == receiverType && $0.locale == "default" }) {
                        all.append((PushTemplate.builtIn(eventType, receiverType, format: format), true))
                    }
                }
            }
        }
        return all.sorted {
            ($0.0.eventType.rawValue, $0.0.receiverType.rawValue, $0.0.locale) < ($1.0.eventType.rawValue, $1.0.receiverType.rawValue, $1.0.locale)
        }
    }

    /// The template in force for exactly this key: the app's, else the built-in one.
    public func get(
        appId: String,
        eventType: EventKind,
        receiverType: ReceiverType,
        locale: String
    ) async throws -> (template: PushTemplate, builtIn: Bool) {
        let stored = try await templates.templates(appId: appId)
        if let found = stored.first(where: { $0.eventType == eventType && $0.receiverType == receiverType && $0.locale == locale }) {
            return (found, false)
        }
        let format = try await app(appId).settings.payloadFormat
        var builtIn = PushTemplate.builtIn(eventType, receiverType, format: format)
        builtIn.locale = locale
        return (builtIn, true)
    }

    public func put(appId: String, _ template: PushTemplate) async throws -> PushTemplate {
        var template = try template.validated()
        if template.eventType == .groupAction, template.receiverType != .group {
            throw HeraldError.invalidField("receiverType", "group actions happen in groups: use group")
        }
        template.updatedAt = clock.now()
        try await templates.upsertTemplate(appId: appId, template)
        return template
    }

    public func delete(appId: String, eventType: EventKind, receiverType: ReceiverType, locale: String) async throws {
        guard try await templates.deleteTemplate(appId: appId, eventType: eventType, receiverType: receiverType, locale: locale) else {
            throw HeraldError.notFound("template", "\(eventType.rawValue)/\(receiverType.rawValue)/\(locale)")
        }
    }

    /// Renders `template` (or the one in force) for `event` (or a sample of the event type).
    public func preview(
        appId: String,
        eventType: EventKind,
        receiverType: ReceiverType,
        locale: String?,
        template: PushTemplate?,
        event: JSONValue?
    ) async throws -> RenderedText {
        let app = try await app(appId)
        let now = clock.now()
        let body = try EventParser.parse(event ?? Self.sample(eventType, receiverType), path: "event", now: now).body
        guard body.kind == eventType else { throw HeraldError.invalidField("event.type", "must be \(eventType.rawValue)") }
        let stored = try await templates.templates(appId: appId)
        let chosen =
            try template?.validated()
            ?? PushTemplate.pick(eventType, receiverType, locale: locale, from: stored, format: app.settings.payloadFormat)
        let resolved = ResolvedEvent.resolve(
            ChatEvent(id: "evt_preview", appId: appId, clientId: nil, receivedAt: now, body: body),
            app: app,
            users: [:],
            group: nil
        )
        return RenderedText.render(chosen, resolved, hideText: app.settings.hideMessageText)
    }

    private func app(_ appId: String) async throws -> App {
        guard let app = try await apps.app(id: appId) else { throw HeraldError.notFound("app", appId) }
        return app
    }

    /// CometChat's people and group, doing the event type's usual thing.
    static func sample(_ eventType: EventKind, _ receiverType: ReceiverType) -> JSONValue {
        let andrew: JSONValue = .object(["uid": .string("cometchat-uid-1"), "name": .string("Andrew Joseph")])
        let george: JSONValue = .object(["uid": .string("cometchat-uid-2"), "name": .string("George Alan")])
        let group: JSONValue = .object(["guid": .string("cometchat-guid-1"), "name": .string("Hiking group")])
        let receiver = receiverType == .group ? group : george
        switch eventType {
        case .call:
            return .object([
                "type": .string("call"), "callAction": .string("initiated"), "sessionId": .string("v1.123.aik2"), "callType": .string("audio"),
                "sender": andrew, "receiver": receiver, "receiverType": .string(receiverType.rawValue),
            ])
        case .reaction:
            var reaction: JSONObject = [
                "type": .string("reaction"), "reaction": .string("😎"), "messageId": .string("58"),
                "messageSender": .string("cometchat-uid-2"), "reactor": andrew, "receiverType": .string(receiverType.rawValue),
            ]
            if receiverType == .group { reaction["group"] = group }
            return .object(reaction)
        case .groupAction:
            return .object(["type": .string("group_action"), "action": .string("left"), "actor": andrew, "group": group])
        default:
            return .object([
                "type": .string("message"),
                "message": .object([
                    "id": .number(123), "text": .string("Hello!"), "sender": andrew, "receiver": receiver,
                    "receiverType": .string(receiverType.rawValue),
                ]),
            ])
        }
    }
}
