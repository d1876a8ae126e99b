import Foundation

/// How cards look in an app: defaults for what a card leaves unset, and overrides that win over
/// the card's own colours (an app keeping its brand), with the font family.
public struct CardTheme: Sendable, Equatable {
    public var textColor: ColorPair?
    public var buttonBackground: ColorPair?
    public var buttonText: ColorPair?
    public var linkColor: ColorPair?
    public var background: ColorPair?
    public var fontFamily: String?

    public init(
        textColor: ColorPair? = nil,
        buttonBackground: ColorPair? = nil,
        buttonText: ColorPair? = nil,
        linkColor: ColorPair? = nil,
        background: ColorPair? = nil,
        fontFamily: String? = nil
    ) {
        self.textColor = textColor
        self.buttonBackground = buttonBackground
        self.buttonText = buttonText
        self.linkColor = linkColor
        self.background = background
        self.fontFamily = fontFamily
    }

    /// What a card uses when neither it nor an override says.
    public static let defaults = CardTheme(
        textColor: ColorPair(light: "#1C1C1E", dark: "#F2F2F7"),
        buttonBackground: ColorPair(light: "#3A5BDB", dark: "#8EA2FB"),
        buttonText: ColorPair(light: "#FFFFFF", dark: "#0B0B0F"),
        linkColor: ColorPair(light: "#3A5BDB", dark: "#8EA2FB"),
        background: ColorPair(light: "#FFFFFF", dark: "#1C1C1E"),
        fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
    )
}
