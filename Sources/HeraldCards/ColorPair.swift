import Foundation
import HeraldModels

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
