import Foundation
import HeraldModels

/// A notification's rendered text: title and body, and in localisation mode the keys and args.
public struct RenderedText: Sendable, Equatable {
    public var title: String
    public var body: String
    public var titleLocKey: String?
    public var titleLocArgs: [String]?
    public var locKey: String?
    public var locArgs: [String]?

    public init(
        title: String,
        body: String,
        titleLocKey: String? = nil,
        titleLocArgs: [String]? = nil,
        locKey: String? = nil,
        locArgs: [String]? = nil
    ) {
        self.title = title
        self.body = body
        self.titleLocKey = titleLocKey
        self.titleLocArgs = titleLocArgs
        self.locKey = locKey
        self.locArgs = locArgs
    }

    /// Renders a template for an event. The localisation keys are the template's, else Kandy's
    /// (and Herald's for the kinds Kandy does not name).
    public static func render(_ template: PushTemplate, _ event: ResolvedEvent, hideText: Bool) -> RenderedText {
        let scope = EventTemplateScope(event: event, hideText: hideText)
        let render = { (text: String) in TemplateRenderer.render(text, scope: scope) }
        var text = RenderedText(title: render(template.title), body: render(template.body))
        if template.titleLocKey != nil || template.bodyLocKey != nil {
            text.titleLocKey = template.titleLocKey.map(render)
            text.titleLocArgs = template.titleLocArgs?.map(render)
            text.locKey = template.bodyLocKey.map(render)
            text.locArgs = template.bodyLocArgs?.map(render)
        } else {
            (text.titleLocKey, text.titleLocArgs, text.locKey, text.locArgs) = LocalizationKeys.defaults(for: event)
        }
        return text
    }
}
