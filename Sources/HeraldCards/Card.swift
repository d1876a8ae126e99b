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

/// A colour for each appearance: `#RRGGBB` or `#RRGGBBAA`.
public struct ColorPair: Codable, Sendable, Equatable {
    public var light: String
    public var dark: String

    public init(light: String, dark: String) {
        self.light = light
        self.dark = dark
    }

    public func resolved(_ scheme: CardColorScheme) -> String { scheme == .dark ? dark : light }
}

public struct CardStyle: Codable, Sendable, Equatable {
    public var background: ColorPair?
    public var borderColor: ColorPair?
    public var borderRadius: Double?
    public var borderWidth: Double?
    public var padding: Double?

    public init(background: ColorPair? = nil, borderColor: ColorPair? = nil, borderRadius: Double? = nil, borderWidth: Double? = nil, padding: Double? = nil) {
        self.background = background
        self.borderColor = borderColor
        self.borderRadius = borderRadius
        self.borderWidth = borderWidth
        self.padding = padding
    }
}

/// What the user tapped: the action and the element that carries it.
public struct CardActionEvent: Sendable, Equatable {
    public var elementId: String
    public var action: CardAction

    public init(elementId: String, action: CardAction) {
        self.elementId = elementId
        self.action = action
    }
}
