import Foundation

/// Rendered titles and bodies of one batch, each (event, locale) rendered once. A batch plans its
/// events one after another (an event's page at a time, never two pages of one event), so only
/// the event in hand's texts are kept, one per locale, found by a linear search: a 1:1 message
/// renders its one text without it being hashed into a table of the whole batch's. (Retries,
/// whose deliveries may alternate between events, render an event's text again when it comes
/// back: the same text, rendered twice.)
struct TextCache {
    private var eventId: String?
    private var texts: [(locale: String?, text: RenderedText)] = []

    mutating func text(_ event: ResolvedEvent, locale: String?, snapshot: AppSnapshot) -> RenderedText {
        if eventId != event.event.id {
            eventId = event.event.id
            texts.removeAll(keepingCapacity: true)
        } else if let known = texts.first(where: { $0.locale == locale }) {
            return known.text
        }
        let template = PushTemplate.pick(
            event.templateType,
            event.receiverType,
            locale: locale,
            from: snapshot.templates,
            format: snapshot.settings.payloadFormat
        )
        let text = RenderedText.render(template, event, hideText: snapshot.settings.hideMessageText)
        texts.append((locale, text))
        return text
    }
}
