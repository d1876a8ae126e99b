import Foundation

/// What the dashboard's templates are given, made safe for Mustache.
///
/// Contexts are `[String: Any]`, and an absent optional stored in one is still a value: Mustache
/// printed `Optional<String>.none` as `nil` and took it as true in a section, so a fresh sign-in
/// page showed an alert reading "nil" and every healthy provider "Set aside: nil". Every context
/// passes through ``normalized(_:)`` before it is rendered: an absent optional, at any depth,
/// becomes a null that renders as nothing and is false in a section, and so does an empty string
/// (a section over `""` would otherwise show its label with nothing after it, as the stray "HTTP"
/// of a skipped delivery did). A null key is still *present*, so a lookup never climbs to an outer
/// context's key of the same name.
enum DashboardContext {
    static func normalized(_ context: [String: Any]) -> [String: Any] {
        context.mapValues(normalized(value:))
    }

    static func normalized(value: Any) -> Any {
        if let optional = value as? any OptionalValue {
            guard let wrapped = optional.wrappedAny else { return NSNull() }
            return normalized(value: wrapped)
        }
        switch value {
        case let text as String:
            return text.isEmpty ? NSNull() : text
        case let object as [String: Any]:
            return normalized(object)
        case let list as [[String: Any]]:
            return list.map(normalized)
        case let list as [Any]:
            return list.map(normalized(value:))
        default:
            return value
        }
    }
}

/// Any `Optional`, whatever it wraps.
protocol OptionalValue {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    var wrappedAny: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
}
