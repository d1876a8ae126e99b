import Foundation
import HeraldCore

/// Where Herald keeps its data: `sqlite:///path/file.sqlite` (the default, one process) or
/// `postgres://user:pass@host:port/db` (many processes).
public enum DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    public static let defaultSQLitePath = "./herald-data/herald.sqlite"
    public static let `default` = DatabaseURL.sqlite(path: defaultSQLitePath)

    public init(parsing text: String) throws {
        if text.hasPrefix("sqlite://") {
            var path = String(text.dropFirst("sqlite://".count))
            if path.hasPrefix("/./") { path.removeFirst() }  // sqlite:///./relative.sqlite
            guard !path.isEmpty else { throw HeraldError.invalidField("database", "sqlite:// needs a file path") }
            self = .sqlite(path: path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else {
            throw HeraldError.invalidField("database", "must be sqlite:///path/file.sqlite or postgres://user:pass@host:port/db")
        }
    }

    /// The folder data belongs in (the SQLite file's folder; the default folder for PostgreSQL).
    public var dataFolder: String {
        switch self {
        case .sqlite(let path): (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        case .postgres: (Self.defaultSQLitePath as NSString).deletingLastPathComponent
        }
    }

    /// `sqlite` or `postgres`.
    public var kind: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres: "postgres"
        }
    }

    /// Printable without the password.
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite://\(path)"
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://…" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres://…"
        }
    }
}
