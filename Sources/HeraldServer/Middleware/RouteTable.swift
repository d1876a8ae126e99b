import HTTPTypes
import HeraldAPI

/// The API's paths and the methods each takes, read from the served OpenAPI document (plus the
/// few routes it does not describe), so that a known path asked with another method is a `405`
/// with `Allow` rather than a `404`.
struct RouteTable: Sendable {
    private var templates: [(segments: [Substring], methods: Set<HTTPRequest.Method>)] = []

    init() {}

    /// Reads `paths:` of an OpenAPI document: a path is a two-space-indented key starting with
    /// `/`, its operations the four-space-indented HTTP method keys under it.
    init(openAPI text: String, extra: [String: [HTTPRequest.Method]] = [:]) {
        var table: [String: Set<HTTPRequest.Method>] = extra.mapValues(Set.init)
        var inPaths = false
        var current: String?
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            if !line.hasPrefix(" ") {
                inPaths = line.hasPrefix("paths:")
                current = nil
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   "), let colon = line.lastIndex(of: ":") {
                current = String(line[line.index(line.startIndex, offsetBy: 2)..<colon])
                table[current!, default: []].formUnion([])
            } else if let path = current, line.hasPrefix("    "), !line.hasPrefix("     ") {
                let key = line.dropFirst(4).prefix { $0 != ":" }
                if let method = HTTPRequest.Method(String(key).uppercased()),
                    ["get", "put", "post", "delete", "patch", "head", "options"].contains(key)
                {
                    table[path, default: []].insert(method)
                }
            }
        }
        templates = table.map { (Self.segments($0.key), $0.value) }
    }

    /// The methods a path takes, when it is one of the table's paths (`{id}` matches one segment;
    /// `/v1/users/batch` is both itself and `/v1/users/{uid}`, so their methods add up).
    func methods(for path: String) -> Set<HTTPRequest.Method>? {
        let asked = Self.segments(path)
        var found: Set<HTTPRequest.Method>?
        for template in templates where template.segments.count == asked.count {
            let matches = zip(template.segments, asked).allSatisfy { pattern, segment in
                (pattern.first == "{" && pattern.last == "}" && !segment.isEmpty) || pattern == segment
            }
            if matches { found = (found ?? []).union(template.methods) }
        }
        if let get = found, get.contains(.get) { return get.union([.head]) }
        return found
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }
}
