import Foundation
import HeraldCore
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import PostgresNIO
import SQLKit

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
        // Started at once, on this thread, up to its first suspension: the pool counts as running
        // before the first query (PostgresNIO warns of a lease taken before `run()`).
        self.runLoop = Task.immediate { await client.run() }
    }

    func transaction<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            let db = connection.sql()
            try await db.perform(SQLRaw("BEGIN"))
            do {
                let value = try await body(db)
                try await db.perform(SQLRaw("COMMIT"))
                return value
            } catch {
                try? await db.perform(SQLRaw("ROLLBACK"))
                throw error
            }
        }
    }

    func write<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await client.withConnection { connection in try await body(connection.sql()) }
    }

    func read<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await write(body)
    }

    /// Holds one connection for `LISTEN channel` and calls `handler` per notification, until cancelled.
    func listen(
        channel: String,
        onListening: @escaping @Sendable () -> Void = {},
        handler: @escaping @concurrent @Sendable (String) async -> Void
    ) async throws {
        try await client.withConnection { connection in
            try await connection.listen(on: channel) { notifications in
                onListening()
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
            let user = components.user, !user.isEmpty
        else {
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
            host: host,
            port: components.port ?? 5432,
            username: user,
            password: components.password,
            database: database.isEmpty ? nil : database,
            tls: tls
        )
    }
}
