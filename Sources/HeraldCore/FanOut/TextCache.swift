import Foundation

/// Rendered titles and bodies of one batch, each (event, locale) rendered once.
struct TextCache {
    private struct Key: Hashable {
        var eventId: String
        var locale: String?
    }

    private var texts: [Key: RenderedText] = [:]

    mutating func text(_ event: ResolvedEvent, locale: String?, snapshot: AppSnapshot) -> RenderedText {
        let key = Key(eventId: event.event.id, locale: locale)
        if let known = texts[key] { return known }
        let template = PushTemplate.pick(
            event.templateType,
            event.receiverType,
            locale: locale,
            from: snapshot.templates,
            format: snapshot.settings.payloadFormat
        )
        let text = RenderedText.render(template, event, hideText: snapshot.settings.hideMessageText)
        texts[key] = text
        return text
    }
}
