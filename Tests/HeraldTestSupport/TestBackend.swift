import Foundation
import HeraldStorage
import Logging
import PostgresNIO

/// The storage back-ends every repository and API test runs on: SQLite always, PostgreSQL when
/// `HERALD_TEST_POSTGRES_URL` is set (`.ci/run` sets it). Under `CI=true` a missing PostgreSQL
/// is an error, not a skip.
public enum TestBackend: String, Sendable, CaseIterable {
    case sqlite
    case postgres

    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["HERALD_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The back-ends available to this run.
    public static var available: [TestBackend] {
        if postgresURL != nil { return [.sqlite, .postgres] }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            fatalError("CI=true but HERALD_TEST_POSTGRES_URL is not set: the PostgreSQL suite would not run")
        }
        return [.sqlite]
    }

    /// A database of this kind, the test's own: a fresh SQLite file, or a fresh PostgreSQL
    /// database on the test server (a test's background workers must never see another test's
    /// work, as they would in one shared database).
    public func databaseURL() async throws -> DatabaseURL {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-test-\(UUID().uuidString)")
            return .sqlite(path: folder.appendingPathComponent("herald.sqlite").path)
        case .postgres:
            return .postgres(url: try await Self.createPostgresDatabase())
        }
    }

    public func openStore() async throws -> (SQLStore, DatabaseURL) {
        let url = try await databaseURL()
        var logger = Logger(label: "herald.test")
        logger.logLevel = .warning
        return (try await SQLStore.open(url, logger: logger), url)
    }

    /// Creates an empty database next to `HERALD_TEST_POSTGRES_URL`'s and returns its URL.
    public static func createPostgresDatabase() async throws -> String {
        guard let base = postgresURL, var components = URLComponents(string: base), let host = components.host, let user = components.user else {
            throw TestFailure("HERALD_TEST_POSTGRES_URL is not a postgres://user@host/db URL")
        }
        let name = "herald_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        var logger = Logger(label: "herald.test.pg")
        logger.logLevel = .error
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: host,
                port: components.port ?? 5432,
                username: user,
                password: components.password,
                database: String(components.path.dropFirst()),
                tls: .disable
            ),
            id: 1,
            logger: logger
        )
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        components.path = "/" + name
        return components.string!
    }
}
