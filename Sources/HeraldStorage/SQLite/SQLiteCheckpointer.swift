import Foundation
import GRDB
import Logging

/// Copies the WAL's pages back into the database file from a connection of its own, beside the
/// writer rather than on its thread: SQLite's own checkpoint ran inside the writer's commits
/// every 1,000 pages (4 MB, nearly every commit under load), holding every writer waiting while it
/// copied, and copying a page the next commit would write again. Every `interval` a passive
/// checkpoint copies what no reader still needs; the writer checkpoints by itself only past
/// ``writerLimit`` bytes of pages (the WAL would otherwise grow while this one is starved).
final class SQLiteCheckpointer: Sendable {
    /// The size of the WAL's pages past which the writer checkpoints by itself: 64 MB.
    static let writerLimit = 64 << 20
    private let connection: DatabaseQueue
    private let loop: Task<Void, Never>

    init(path: String, interval: Duration = .milliseconds(500), logger: Logger) throws {
        var configuration = Configuration()
        configuration.label = "herald.checkpoint"
        configuration.busyMode = .timeout(5)
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        self.connection = connection
        loop = Task.detached(priority: .utility) {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                do {
                    try await connection.writeWithoutTransaction { db in
                        try SQLiteStatementProfile.measure("PRAGMA wal_checkpoint(PASSIVE)") { try db.checkpoint(.passive) }
                    }
                } catch {
                    logger.debug("a WAL checkpoint did not run", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    func stop() async throws {
        loop.cancel()
        await loop.value
        try connection.close()
    }
}
