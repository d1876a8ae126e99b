import Foundation
import Mustache

/// A template text compiled once. Most push templates are literal text around variables
/// (`{{sender.name}}`, `{{{message.text}}}`): those render by looking the names up, the way
/// Mustache would, without its general machinery — measured, Mustache's lookups were most of
/// the cost of a push's text. Anything else (sections, inverted sections, transforms, partials,
/// comments) is rendered by swift-mustache, as is a simple template whose variable holds
/// something other than a string or a whole number.
struct CompiledTemplate: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        /// A variable's dotted path, split.
        case variable([String])
    }

    /// The segments, when the text is only literals and variables.
    let segments: [Segment]?
    let mustache: MustacheTemplate

    init?(_ text: String) {
        guard let mustache = try? MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + text) else { return nil }
        self.mustache = mustache
        self.segments = Self.segments(of: text)
    }

    func render(_ context: [String: Any]) -> String {
        render(DictionaryScope(dictionary: context))
    }

    func render(_ scope: some TemplateScope) -> String {
        guard let segments else { return mustache.render(scope.dictionary) }
        var output = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                output += text
            case .variable(let path):
                switch scope.lookUp(path) {
                case .found(let text): output += text
                case .missing: break
                case .other: return mustache.render(scope.dictionary)
                }
            }
        }
        return output
    }

    enum Lookup: Equatable {
        case found(String)
        case missing
        /// Something Mustache renders in its own way (a list, a flag, a number with a fraction).
        case other
    }

    /// A dotted name as Mustache resolves it in a context of dictionaries: each part in the
    /// value of the one before; a part not there renders nothing.
    static func lookUp(_ path: [String], in context: [String: Any]) -> Lookup {
        var current: Any = context
        for name in path {
            guard let dictionary = current as? [String: Any] else { return .other }
            guard let value = dictionary[name] else { return .missing }
            current = value
        }
        switch current {
        case let text as String: return .found(text)
        case let number as Int: return .found(String(number))
        default: return .other
        }
    }

    /// The text as literals and variables, or nil when it holds any other kind of tag.
    static func segments(of text: String) -> [Segment]? {
        var segments: [Segment] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { segments.append(.literal(String(rest[..<open.lowerBound]))) }
            rest = rest[open.upperBound...]
            let close: String
            if rest.first == "{" {
                rest = rest.dropFirst()
                close = "}}}"
            } else {
                if rest.first == "&" { rest = rest.dropFirst() }
                close = "}}"
            }
            guard let end = rest.range(of: close) else { return nil }
            let name = rest[..<end.lowerBound].trimmingCharacters(in: .whitespaces)
            rest = rest[end.upperBound...]
            let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.isEmpty, path.allSatisfy(isIdentifier) else { return nil }
            segments.append(.variable(path))
        }
        if !rest.isEmpty { segments.append(.literal(String(rest))) }
        return segments
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
        }
    }
}
