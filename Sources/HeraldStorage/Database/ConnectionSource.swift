import SQLKit

/// Where statements run. Bodies run on the caller's executor (`nonisolated(nonsending)`): on
/// SQLite's writer that is the writer's own thread, where each statement runs at once.
protocol ConnectionSource: Sendable {
    var dialect: Dialect { get }
    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws. On
    /// SQLite, concurrent callers share one transaction (each in a savepoint of its own).
    func transaction<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs statements that may write, each atomic by itself.
    func write<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs read-only statements alongside writes (SQLite: a reader that sees the last commit).
    func read<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    func shutdown() async throws
}

extension SQLitePool: ConnectionSource {
    var dialect: Dialect { .sqlite }

    func transaction<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await writer.transaction(body)
    }

    func write<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await writer.transaction(body)
    }

    func read<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await body(reader)
    }

    func shutdown() async throws {
        try await close()
    }
}
