import Foundation

/// Resolves colours: the override theme first, then the card's own, then the defaults.
public struct CardColors: Sendable {
    public var scheme: CardColorScheme
    public var overrides: CardTheme

    public init(scheme: CardColorScheme, overrides: CardTheme = CardTheme()) {
        self.scheme = scheme
        self.overrides = overrides
    }

    public func resolve(_ override: KeyPath<CardTheme, ColorPair?>, card: ColorPair?) -> String {
        (overrides[keyPath: override] ?? card ?? CardTheme.defaults[keyPath: override]!).resolved(scheme)
    }

    public var fontFamily: String { overrides.fontFamily ?? CardTheme.defaults.fontFamily! }
}
