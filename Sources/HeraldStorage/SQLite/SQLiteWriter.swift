import Foundation
import GRDB
import Logging
import NIOCore
import NIOPosix
import SQLKit

/// SQLite's one writer. Every write of the process runs here, on the connection's own thread,
/// and what concurrent callers write joins the transaction of the current tick: one `COMMIT`
/// for many callers, each answered with its own result once that commit is durable. Each
/// caller's work runs inside a savepoint, so one that fails is rolled back alone.
///
/// Callers' bodies run on the writer's executor (`nonisolated(nonsending)`) and their
/// statements run at once, without a thread hop each; a body must not wait on anything but
/// this database.
actor SQLiteWriter {
    nonisolated let executor: SQLiteWriterExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    nonisolated let logger: Logger
    private var pending: [any PendingWrite] = []
    private var ticking = false
    /// Most writes joined into one transaction.
    let maxTick = 2_000

    init(pool: DatabasePool, logger: Logger) {
        self.executor = SQLiteWriterExecutor(pool: pool)
        self.logger = logger
    }

    /// Runs `body` in the transaction of the current tick and returns what it returned, once
    /// the transaction is committed; if the body throws, its writes are rolled back and the
    /// error is thrown here.
    func transaction<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            pending.append(Write(body: body, continuation: continuation))
            if !ticking {
                ticking = true
                Task { await self.tick() }
            }
        }
    }

    /// Commits what waits, in transactions of up to ``maxTick`` writes.
    private func tick() async {
        while !pending.isEmpty {
            let batch = Array(pending.prefix(maxTick))
            pending.removeFirst(batch.count)
            await commit(batch)
        }
        ticking = false
    }

    private func commit(_ batch: [any PendingWrite]) async {
        let session = SQLiteWriterSession(writer: self)
        guard let db = executor.database else {
            for write in batch { write.finish(HeraldStorageError.writerUnavailable) }
            return
        }
        do {
            try Self.execute("BEGIN IMMEDIATE", on: db)
        } catch {
            for write in batch { write.finish(error) }
            return
        }
        let alone = batch.count == 1
        for write in batch {
            if !alone { try? Self.execute("SAVEPOINT herald_write", on: db) }
            let succeeded = await write.run(session)
            guard !alone else { continue }
            if !succeeded { try? Self.execute("ROLLBACK TO herald_write", on: db) }
            try? Self.execute("RELEASE herald_write", on: db)
        }
        do {
            if alone, !batch[0].succeeded {
                try Self.execute("ROLLBACK", on: db)
            } else {
                try Self.execute("COMMIT", on: db, rows: batch.count)
            }
        } catch {
            try? db.execute(sql: "ROLLBACK")
            logger.error("an SQLite commit failed", metadata: ["writes": "\(batch.count)", "error": "\(error)"])
            for write in batch { write.finish(error) }
            return
        }
        for write in batch { write.finish(nil) }
    }

    /// Runs a statement that begins or ends a transaction or savepoint, through GRDB (which keeps
    /// track of them); `rows`: the writes it ends, for the statement profile.
    private static func execute(_ sql: String, on db: Database, rows: Int = 1) throws {
        try SQLiteStatementProfile.measure(sql, rows: rows) { try db.execute(sql: sql) }
    }

    /// Runs one statement now (for callers not on the writer's executor: SQLKit's own async
    /// calls arrive here through a hop).
    func run(_ sql: String, binds: [any Encodable & Sendable]) throws -> [SQLiteRow] {
        guard let db = executor.database else { throw HeraldStorageError.writerUnavailable }
        return try SQLiteStatements.run(sql, binds: binds, on: db)
    }
}

/// One caller's write waiting for its tick.
protocol PendingWrite: AnyObject, Sendable {
    /// Runs the body; false if it threw (its result is the error).
    nonisolated(nonsending) func run(_ db: any SQLDatabase) async -> Bool
    var succeeded: Bool { get }
    /// Answers the caller: its result, or `commitError` when the transaction failed.
    func finish(_ commitError: (any Error)?)
}

private final class Write<T: Sendable>: PendingWrite, @unchecked Sendable {
    let body: nonisolated(nonsending) @Sendable (any SQLDatabase) async throws -> T
    let continuation: CheckedContinuation<T, any Error>
    // Set and read on the writer's executor only.
    private var result: Result<T, any Error>?

    init(body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T, continuation: CheckedContinuation<T, any Error>) {
        self.body = body
        self.continuation = continuation
    }

    nonisolated(nonsending) func run(_ db: any SQLDatabase) async -> Bool {
        do {
            result = .success(try await body(db))
            return true
        } catch {
            result = .failure(error)
            return false
        }
    }

    var succeeded: Bool {
        if case .success = result { return true }
        return false
    }

    func finish(_ commitError: (any Error)?) {
        if let commitError {
            continuation.resume(throwing: commitError)
        } else {
            continuation.resume(with: result ?? .failure(HeraldStorageError.writerUnavailable))
        }
    }
}

enum HeraldStorageError: Error, CustomStringConvertible {
    case writerUnavailable

    var description: String {
        switch self {
        case .writerUnavailable: "the SQLite writer is not running"
        }
    }
}
