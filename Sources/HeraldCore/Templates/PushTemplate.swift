import Foundation

/// The title and body of one kind of notification in one locale (`PUT /v1/push/templates/…`),
/// Mustache templates over the event's variables (`{{sender.name}}`, `{{message.text}}`, …). In
/// localisation mode (Kandy) the `*LocKey` fields and their rendered args go in `aps.alert`.
public struct PushTemplate: Codable, Sendable, Equatable {
    /// One of ``EventKind/notifiable``.
    public var eventType: EventKind
    public var receiverType: ReceiverType
    /// `default`, a language (`pt`) or a language and region (`pt-BR`).
    public var locale: String
    public var title: String
    public var body: String
    public var titleLocKey: String?
    public var titleLocArgs: [String]?
    public var bodyLocKey: String?
    public var bodyLocArgs: [String]?
    public var updatedAt: Date?

    public init(
        eventType: EventKind,
        receiverType: ReceiverType,
        locale: String = "default",
        title: String,
        body: String,
        titleLocKey: String? = nil,
        titleLocArgs: [String]? = nil,
        bodyLocKey: String? = nil,
        bodyLocArgs: [String]? = nil,
        updatedAt: Date? = nil
    ) {
        self.eventType = eventType
        self.receiverType = receiverType
        self.locale = locale
        self.title = title
        self.body = body
        self.titleLocKey = titleLocKey
        self.titleLocArgs = titleLocArgs
        self.bodyLocKey = bodyLocKey
        self.bodyLocArgs = bodyLocArgs
        self.updatedAt = updatedAt
    }

    /// The roots a template may name.
    public static let variables = [
        "sender", "receiver", "group", "message", "reaction", "callType", "callAction", "actor", "target",
        "action", "actionText", "conversationId", "app", "recipient",
    ]

    /// The documented texts (CometChat's): a user message is titled with the sender and shows the text; a group
    /// message is titled with the group and shows "Sender: text"; a call says AUDIO CALL or VIDEO
    /// CALL; a reaction says "Reacted to your message: 😎"; a group action "Andrew Joseph has left".
    /// In the Sendbird format a message's body is "Sender: text" (Sendbird's alert).
    public static func builtIn(_ eventType: EventKind, _ receiverType: ReceiverType, format: PushSettings.PayloadFormat = .cometchat) -> PushTemplate
    {
        let group = receiverType == .group
        switch eventType {
        case .call:
            return PushTemplate(
                eventType: eventType,
                receiverType: receiverType,
                title: group ? "{{group.name}}" : "{{sender.name}}",
                body: group ? "{{sender.name}}: {{uppercased(callType)}} CALL" : "{{uppercased(callType)}} CALL"
            )
        case .reaction:
            return PushTemplate(
                eventType: eventType,
                receiverType: receiverType,
                title: group ? "{{group.name}}" : "{{sender.name}}",
                body: group ? "{{sender.name}} reacted to your message: {{reaction}}" : "Reacted to your message: {{reaction}}"
            )
        case .groupAction:
            return PushTemplate(eventType: eventType, receiverType: .group, title: "{{group.name}}", body: "{{actionText}}")
        default:
            if group || format == .sendbird {
                return PushTemplate(
                    eventType: .message,
                    receiverType: receiverType,
                    title: group ? "{{group.name}}" : "{{sender.name}}",
                    body: "{{sender.name}}: {{message.preview}}"
                )
            }
            return PushTemplate(eventType: .message, receiverType: .user, title: "{{sender.name}}", body: "{{message.preview}}")
        }
    }

    /// Checks a template a client sends: known event type and locale, sizes, and that every
    /// text compiles and names known variables only.
    public func validated() throws -> PushTemplate {
        guard EventKind.notifiable.contains(eventType) else {
            throw HeraldError.invalidField("eventType", "must be one of \(EventKind.notifiable.map(\.rawValue).joined(separator: ", "))")
        }
        guard locale == "default" || Self.isLocale(locale) else {
            throw HeraldError.invalidField("locale", "must be default, a language (en) or a language and region (pt-BR)")
        }
        try Validate.text(title, field: "title", maxLength: 500, required: true)
        try Validate.text(body, field: "body", maxLength: 2_000, required: true)
        var texts = [("title", title), ("body", body)]
        for (field, key) in [("titleLocKey", titleLocKey), ("bodyLocKey", bodyLocKey)] {
            if let key {
                try Validate.text(key, field: field, maxLength: 200, required: true)
                texts.append((field, key))
            }
        }
        for (field, args) in [("titleLocArgs", titleLocArgs), ("bodyLocArgs", bodyLocArgs)] {
            guard let args else { continue }
            guard args.count <= 10 else { throw HeraldError.invalidField(field, "at most 10 args") }
            for (index, arg) in args.enumerated() { texts.append(("\(field)[\(index)]", arg)) }
        }
        for (field, text) in texts { try TemplateRenderer.check(text, field: field) }
        return self
    }

    static func isLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), (2...3).contains(parts[0].count), parts[0].allSatisfy({ $0.isLetter && $0.isLowercase }) else {
            return false
        }
        return parts.dropFirst().allSatisfy { (2...4).contains($0.count) && $0.allSatisfy { $0.isLetter || $0.isNumber } }
    }

    /// Which stored template serves a recipient's locale: the exact one, the language, the app's
    /// `default`, then the built-in text.
    public static func pick(
        _ eventType: EventKind,
        _ receiverType: ReceiverType,
        locale: String?,
        from stored: [PushTemplate],
        format: PushSettings.PayloadFormat = .cometchat
    ) -> PushTemplate {
        let candidates = stored.filter { $0.eventType == eventType && $0.receiverType == receiverType }
        var wanted: [String] = []
        if let locale, !locale.isEmpty {
            wanted.append(locale)
            if let language = locale.split(separator: "-").first { wanted.append(String(language)) }
        }
        wanted.append("default")
        for name in wanted {
            if let found = candidates.first(where: { $0.locale.lowercased() == name.lowercased() }) { return found }
        }
        return builtIn(eventType, receiverType, format: format)
    }
}
