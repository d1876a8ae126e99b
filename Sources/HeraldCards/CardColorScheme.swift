import Foundation

/// Light or dark appearance.
public enum CardColorScheme: String, Sendable, CaseIterable {
    case light, dark
}
