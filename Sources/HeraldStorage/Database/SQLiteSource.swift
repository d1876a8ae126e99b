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
