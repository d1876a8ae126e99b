import Foundation
import HeraldModels

/// The text of a burst summary: titled as the conversation (the group, or the person writing),
/// saying how many messages arrived ("5 new messages") in the recipient's language — their
/// locale, then its language, then English. With localisation keys on, the alert carries
/// `burstSummaryNotification_body` with the count as its argument.
public enum BurstSummary {
    public static let locKey = "burstSummaryNotification_body"

    /// `{{count}}` is the number of messages.
    public static let bodies: [String: String] = [
        "en": "{{count}} new messages",
        "de": "{{count}} neue Nachrichten",
        "es": "{{count}} mensajes nuevos",
        "fr": "{{count}} nouveaux messages",
        "it": "{{count}} nuovi messaggi",
        "nl": "{{count}} nieuwe berichten",
        "pt": "{{count}} novas mensagens",
        "ja": "{{count}}件の新着メッセージ",
        "zh": "{{count}} 条新消息",
    ]

    /// The template for a locale (`pt-BR` → `pt`), English when there is none.
    public static func body(locale: String?) -> String {
        guard let locale, !locale.isEmpty else { return bodies["en"]! }
        let normalised = locale.replacingOccurrences(of: "_", with: "-")
        if let exact = bodies[normalised] { return exact }
        let language = String(normalised.split(separator: "-").first ?? "")
        return bodies[language] ?? bodies["en"]!
    }

    public static func text(_ event: ResolvedEvent, count: Int, locale: String?) -> RenderedText {
        let title = event.receiverType == .group ? (event.group?.name ?? event.sender.name) : event.sender.name
        let body = body(locale: locale).replacingOccurrences(of: "{{count}}", with: String(count))
        return RenderedText(title: title, body: body, titleLocKey: nil, titleLocArgs: nil, locKey: locKey, locArgs: [String(count)])
    }
}
