import Foundation

/// What the dashboard's templates are given, made safe for Mustache: the one place where a view
/// model becomes a context.
///
/// Pages are built as typed view models (a struct per page and per row, their stored properties
/// being the template's keys), and Mustache reads structs by reflection, where an absent optional
/// is a *missing* key: a lookup then climbs to an outer context's key of the same name, the
/// class of bug that once showed a fresh sign-in page an alert reading "nil" and every healthy
/// provider "Set aside: nil" (and, for a value stored as `Any`, Mustache printed
/// `Optional<String>.none` as `nil` and took it as true in a section). So every view model passes
/// through ``normalized(value:)`` before it is rendered: structs become dictionaries with every
/// property present, and an absent optional, at any depth, becomes a null that renders as nothing
/// and is false in a section, and so does an empty string (a section over `""` would otherwise
/// show its label with nothing after it, as the stray "HTTP" of a skipped delivery did). A null
/// key is still *present*, so a lookup never climbs to an outer context's key of the same name.
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
        case is Bool, is Int, is Double, is NSNull:
            return value
        case let object as [String: Any]:
            return normalized(object)
        case let list as [Any]:
            return list.map(normalized(value:))
        default:
            // A view model: its stored properties by name, every one present.
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .struct || mirror.displayStyle == .class else { return value }
            var object: [String: Any] = [:]
            for case (let label?, let child) in mirror.children {
                object[label] = normalized(value: child)
            }
            return object
        }
    }
}
