import HeraldCore
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import PostgresKit
import SQLiteKit
import SQLKit
import Synchronization

enum Dialect: Sendable {
    case sqlite
    case postgres
}

/// Hands out an `SQLDatabase` that is one session (one connection) for the closure's duration.
protocol ConnectionSource: Sendable {
    var dialect: Dialect { get }
    func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// A connection for reads only, which may run alongside writes.
    func withReadConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    func shutdown() async throws
}

/// SQLite in WAL mode: one writer connection, used by one task at a time (SQLite serialises
/// writers anyway; one connection keeps transactions simple), and a few read-only connections
/// that read the last committed state while the writer works.
final class SQLiteSource: ConnectionSource {
    let dialect = Dialect.sqlite
    private let writer: SQLiteConnection
    private let writerLock = AsyncMutex()
    private let readers: [(connection: SQLiteConnection, lock: AsyncMutex)]
    private let nextReader = Atomic<Int>(0)

    init(path: String, readers readerCount: Int = 2, logger: Logger) async throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        self.writer = try await SQLiteConnection.open(storage: .file(path: path), logger: logger).get()
        let db = writer.sql()
        // WAL lets readers, a CLI command and the server share the file; busy_timeout waits for the writer.
        try await db.raw("PRAGMA journal_mode = WAL").run()
        try await db.raw("PRAGMA synchronous = NORMAL").run()
        try await db.raw("PRAGMA busy_timeout = 5000").run()
        try await db.raw("PRAGMA foreign_keys = ON").run()
        var readers: [(SQLiteConnection, AsyncMutex)] = []
        for _ in 0..<readerCount {
            let reader = try await SQLiteConnection.open(storage: .file(path: path), logger: logger).get()
            try await reader.sql().raw("PRAGMA busy_timeout = 5000").run()
            try await reader.sql().raw("PRAGMA query_only = ON").run()
            readers.append((reader, AsyncMutex()))
        }
        self.readers = readers
    }

    func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await writerLock.withLock { try await body(writer.sql()) }
    }

    func withReadConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        guard !readers.isEmpty else { return try await withConnection(body) }
        let reader = readers[nextReader.add(1, ordering: .relaxed).oldValue % readers.count]
        return try await reader.lock.withLock { try await body(reader.connection.sql()) }
    }

    func shutdown() async throws {
        for reader in readers { try? await reader.connection.close().get() }
        try await writer.close().get()
    }
}

/// PostgresNIO's connection pool. Its `run()` loop lives as long as the source.
final class PostgresSource: ConnectionSource {
    let dialect = Dialect.postgres
    private let client: PostgresClient
    private let runLoop: Task<Void, Never>

    init(url: String, maximumConnections: Int = 16, logger: Logger) throws {
        var configuration = try Self.configuration(url)
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.runLoop = Task { await client.run() }
    }

    func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in try await body(connection.sql()) }
    }

    func withReadConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await withConnection(body)
    }

    /// Holds one connection for `LISTEN channel` and calls `handler` per notification, until cancelled.
    func listen(channel: String, handler: @escaping @Sendable (String) async -> Void) async throws {
        try await client.withConnection { connection in
            try await connection.listen(on: channel) { notifications in
                for try await notification in notifications {
                    await handler(notification.payload)
                }
            }
        }
    }

    func shutdown() async throws {
        runLoop.cancel()
        await runLoop.value
    }

    /// `postgres://user:pass@host:port/db[?sslmode=disable|prefer|require]`; TLS is off unless asked for.
    static func configuration(_ text: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty,
              let user = components.user, !user.isEmpty else {
            throw HeraldError.invalidField("database", "a PostgreSQL URL needs a user and a host: postgres://user:pass@host:5432/db")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let mode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "disable"
        let tls: PostgresClient.Configuration.TLS
        switch mode {
        case "disable", "allow": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default: throw HeraldError.invalidField("database", "sslmode must be disable, prefer or require")
        }
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? nil : database, tls: tls
        )
    }
}
