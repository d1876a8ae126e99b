import Foundation
import HeraldStorage
import Logging

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

    /// A database of this kind: a fresh SQLite file, or the shared PostgreSQL database (every
    /// test works in its own app, which is what tenant isolation guarantees anyway).
    public func databaseURL() -> DatabaseURL {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-test-\(UUID().uuidString)")
            return .sqlite(path: folder.appendingPathComponent("herald.sqlite").path)
        case .postgres:
            return .postgres(url: Self.postgresURL!)
        }
    }

    public func openStore() async throws -> (SQLStore, DatabaseURL) {
        let url = databaseURL()
        var logger = Logger(label: "herald.test")
        logger.logLevel = .warning
        return (try await SQLStore.open(url, logger: logger), url)
    }
}
