import Foundation
import HeraldStorage
import Logging
import PostgresNIO
import Synchronization

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
            let folder = TestScratch.path("herald-test")
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

    /// Creates an empty database next to `HERALD_TEST_POSTGRES_URL`'s and returns its URL. Its
    /// name carries the test process's id, `herald_t_<pid>_<random>`: before its first one, a run
    /// drops those of runs that have ended (``TestScratch/hasEnded(_:)``), so that a developer's
    /// server holds the databases of one run, not of every run (each is ~15 MB).
    public static func createPostgresDatabase() async throws -> String {
        guard let base = postgresURL, var components = URLComponents(string: base), let host = components.host, let user = components.user else {
            throw TestFailure("HERALD_TEST_POSTGRES_URL is not a postgres://user@host/db URL")
        }
        let name = "herald_t_\(getpid())_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
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
            let first = leftoversSwept.withLock { swept in
                defer { swept = true }
                return !swept
            }
            if first {
                await dropEndedRunsDatabases(on: connection, logger: logger)
            }
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        components.path = "/" + name
        return components.string!
    }

    private static let leftoversSwept = Mutex(false)

    /// Drops the databases whose test process has ended; one still open (a `herald` that outlived
    /// its run) stays, for the next run to try again.
    private static func dropEndedRunsDatabases(on connection: PostgresConnection, logger: Logger) async {
        var ended: [String] = []
        do {
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: #"SELECT datname FROM pg_database WHERE datname LIKE 'herald\_t\_%'"#),
                logger: logger
            )
            for try await name in rows.decode(String.self) {
                let parts = name.split(separator: "_")
                guard parts.count == 4, let pid = Int32(parts[2]), TestScratch.hasEnded(pid) else { continue }
                ended.append(name)
            }
        } catch {
            return
        }
        for name in ended {
            _ = try? await connection.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name)"), logger: logger)
        }
    }
}
