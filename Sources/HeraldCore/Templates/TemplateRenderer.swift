import Foundation
import Mustache

/// Renders template texts with Mustache's rules, as plain text (no HTML escaping: a push is not a
/// web page). Compiled templates are kept, so a text is parsed once however many pushes use it
/// (``CompiledTemplate``: the common ones without swift-mustache's general machinery).
public enum TemplateRenderer {
    private static let cache = TemplateCache()

    /// Renders `text` over `context`; a text that does not compile renders as itself.
    public static func render(_ text: String, _ context: [String: Any]) -> String {
        render(text, scope: DictionaryScope(dictionary: context))
    }

    /// Renders `text` with the variables of `scope`.
    static func render(_ text: String, scope: some TemplateScope) -> String {
        guard hasTag(text) else { return text }
        guard let template = cache.template(text) else { return text }
        return template.render(scope)
    }

    /// Whether `text` holds a `{{` (a tag): a scan of its bytes, as every string of every card
    /// and push is asked (Foundation's `contains` bridges each to an `NSString`).
    public static func hasTag(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "{") && previous == byte { return true }
            previous = byte
        }
        return false
    }

    /// Throws `invalidField` when `text` does not compile or names an unknown variable.
    static func check(_ text: String, field: String) throws {
        do {
            _ = try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + text)
        } catch {
            throw HeraldError.invalidField(field, "is not a valid template: \(error)")
        }
        for name in variableNames(in: text) {
            let root = String(name.split(separator: ".").first ?? "")
            guard PushTemplate.variables.contains(root) else {
                throw HeraldError.invalidField(field, "'\(name)' is not a template variable; use \(PushTemplate.variables.joined(separator: ", "))")
            }
        }
    }

    /// The variable paths a template names (`{{sender.name}}`, `{{#group}}`, `{{uppercased(callType)}}`).
    static func variableNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            rest = rest[open.upperBound...]
            guard let close = rest.range(of: "}}") else { break }
            var tag = rest[..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            rest = rest[close.upperBound...]
            if let first = tag.first, "#^/&{".contains(first) { tag.removeFirst() }
            if tag.hasSuffix("}") { tag.removeLast() }
            if tag.hasPrefix("!") || tag.hasPrefix("%") || tag.hasPrefix(">") || tag == "." { continue }
            if let openParen = tag.firstIndex(of: "("), let closeParen = tag.lastIndex(of: ")") {
                tag = String(tag[tag.index(after: openParen)..<closeParen])
            }
            tag = tag.trimmingCharacters(in: .whitespaces)
            if !tag.isEmpty { names.append(tag) }
        }
        return names
    }
}

/// Compiled templates by text, shared by every renderer.
private final class TemplateCache: @unchecked Sendable {
    // @unchecked: the dictionary is only touched under `lock`.
    private let lock = NSLock()
    private var compiled: [String: CompiledTemplate] = [:]

    func template(_ text: String) -> CompiledTemplate? {
        lock.lock()
        defer { lock.unlock() }
        if let found = compiled[text] { return found }
        guard let template = CompiledTemplate(text) else { return nil }
        if compiled.count > 10_000 { compiled.removeAll() }
        compiled[text] = template
        return template
    }
}
