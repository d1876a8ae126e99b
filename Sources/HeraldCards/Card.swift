import Foundation
import HeraldModels

/// A notification-feed card (CometChat Campaigns' Card Schema, `card-schema.json`): elements top to
/// bottom, a style, and the text shown where cards cannot be rendered.
public struct Card: Codable, Sendable, Equatable {
    public var version: String
    public var body: [CardElement]
    public var style: CardStyle?
    public var fallbackText: String

    public init(version: String = "1.0", body: [CardElement], style: CardStyle? = nil, fallbackText: String) {
        self.version = version
        self.body = body
        self.style = style
        self.fallbackText = fallbackText
    }

    /// Reads a card from its JSON (a feed item's `content`).
    public init(json: JSONObject) throws {
        self = try JSONDecoder().decode(Card.self, from: Data(JSONValue.object(json).jsonBytes()))
    }

    /// Every action in the card with the id of the element that carries it, in reading order.
    public var actions: [CardActionEvent] {
        var found: [CardActionEvent] = []
        func walk(_ elements: [CardElement]) {
            for element in elements {
                if let action = element.action { found.append(CardActionEvent(elementId: element.id ?? "", action: action)) }
                walk(element.children)
            }
        }
        walk(body)
        return found
    }
}
