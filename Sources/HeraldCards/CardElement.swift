import Foundation
import HeraldModels

/// One element of a card, told apart by `type`.
public enum CardElement: Codable, Sendable, Equatable {
    case text(Text)
    case image(Image)
    case button(Button)
    case iconButton(IconButton)
    case link(Link)
    case row(Container)
    case column(Container)
    case accordion(Accordion)
    case tabs(Tabs)
    case divider(Divider)
    case spacer(Spacer)

    public struct Text: Codable, Sendable, Equatable {
        public var id: String
        public var content: String
        /// `heading1`…`heading4`, `body`, `bodyBold`, `caption`, `caption2`.
        public var variant: String?
        public var color: ColorPair?
        public var align: String?
        public var maxLines: Int?
    }

    public struct Image: Codable, Sendable, Equatable {
        public var id: String
        public var url: String
        public var alt: String?
        public var height: Double?
        public var width: Double?
        public var aspectRatio: Double?
        /// `cover` or `contain`.
        public var fit: String?
        public var cornerRadius: Double?
        public var action: CardAction?
    }

    public struct Button: Codable, Sendable, Equatable {
        public var id: String
        public var label: String
        public var action: CardAction
        /// `filled` (default), `outlined`, `text`.
        public var variant: String?
        public var background: ColorPair?
        public var textColor: ColorPair?
        public var fullWidth: Bool?
    }

    public struct IconButton: Codable, Sendable, Equatable {
        public var id: String
        /// An icon name or an image URL.
        public var icon: String
        public var label: String?
        public var action: CardAction
        public var size: Double?
        public var color: ColorPair?
    }

    public struct Link: Codable, Sendable, Equatable {
        public var id: String
        public var text: String
        public var action: CardAction
        public var color: ColorPair?
    }

    /// A row or a column of elements.
    public struct Container: Codable, Sendable, Equatable {
        public var id: String
        public var items: [CardElement]
        public var gap: Double?
        /// `start`, `center`, `end` (rows also `spaceBetween`).
        public var align: String?
    }

    public struct Accordion: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var items: [CardElement]
        public var expanded: Bool?
    }

    public struct Tab: Codable, Sendable, Equatable {
        public var id: String?
        public var title: String
        public var items: [CardElement]
    }

    public struct Tabs: Codable, Sendable, Equatable {
        public var id: String
        public var tabs: [Tab]
        public var selected: Int?
    }

    public struct Divider: Codable, Sendable, Equatable {
        public var id: String?
        public var color: ColorPair?
        public var thickness: Double?
    }

    public struct Spacer: Codable, Sendable, Equatable {
        public var id: String?
        public var height: Double
    }

    public var id: String? {
        switch self {
        case .text(let e): e.id
        case .image(let e): e.id
        case .button(let e): e.id
        case .iconButton(let e): e.id
        case .link(let e): e.id
        case .row(let e), .column(let e): e.id
        case .accordion(let e): e.id
        case .tabs(let e): e.id
        case .divider(let e): e.id
        case .spacer(let e): e.id
        }
    }

    /// The element's own action, if it has one.
    public var action: CardAction? {
        switch self {
        case .image(let e): e.action
        case .button(let e): e.action
        case .iconButton(let e): e.action
        case .link(let e): e.action
        default: nil
        }
    }

    /// Elements nested in this one.
    public var children: [CardElement] {
        switch self {
        case .row(let e), .column(let e): e.items
        case .accordion(let e): e.items
        case .tabs(let e): e.tabs.flatMap(\.items)
        default: []
        }
    }

    enum Kind: String, Codable {
        case text, image, button, iconButton, link, row, column, accordion, tabs, divider, spacer
    }

    private enum TypeKey: String, CodingKey { case type }

    public init(from decoder: any Decoder) throws {
        let kind = try decoder.container(keyedBy: TypeKey.self).decode(Kind.self, forKey: .type)
        switch kind {
        case .text: self = .text(try Text(from: decoder))
        case .image: self = .image(try Image(from: decoder))
        case .button: self = .button(try Button(from: decoder))
        case .iconButton: self = .iconButton(try IconButton(from: decoder))
        case .link: self = .link(try Link(from: decoder))
        case .row: self = .row(try Container(from: decoder))
        case .column: self = .column(try Container(from: decoder))
        case .accordion: self = .accordion(try Accordion(from: decoder))
        case .tabs: self = .tabs(try Tabs(from: decoder))
        case .divider: self = .divider(try Divider(from: decoder))
        case .spacer: self = .spacer(try Spacer(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        switch self {
        case .text(let e):
            try container.encode(Kind.text, forKey: .type)
            try e.encode(to: encoder)
        case .image(let e):
            try container.encode(Kind.image, forKey: .type)
            try e.encode(to: encoder)
        case .button(let e):
            try container.encode(Kind.button, forKey: .type)
            try e.encode(to: encoder)
        case .iconButton(let e):
            try container.encode(Kind.iconButton, forKey: .type)
            try e.encode(to: encoder)
        case .link(let e):
            try container.encode(Kind.link, forKey: .type)
            try e.encode(to: encoder)
        case .row(let e):
            try container.encode(Kind.row, forKey: .type)
            try e.encode(to: encoder)
        case .column(let e):
            try container.encode(Kind.column, forKey: .type)
            try e.encode(to: encoder)
        case .accordion(let e):
            try container.encode(Kind.accordion, forKey: .type)
            try e.encode(to: encoder)
        case .tabs(let e):
            try container.encode(Kind.tabs, forKey: .type)
            try e.encode(to: encoder)
        case .divider(let e):
            try container.encode(Kind.divider, forKey: .type)
            try e.encode(to: encoder)
        case .spacer(let e):
            try container.encode(Kind.spacer, forKey: .type)
            try e.encode(to: encoder)
        }
    }
}
