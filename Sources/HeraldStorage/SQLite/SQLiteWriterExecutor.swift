import Foundation
import GRDB

/// The executor of SQLite's one writer: its jobs run on GRDB's writer queue, inside one write
/// access that lasts while there is work, so the writer's code holds the connection without a
/// thread hop per statement. While a transaction is open the access waits for the next job
/// rather than end (nothing else may write meanwhile, and GRDB refuses to end an access with a
/// transaction open); between transactions it ends as soon as no job waits.
final class SQLiteWriterExecutor: SerialExecutor, @unchecked Sendable {
    private let pool: DatabasePool
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var draining = false
    private var waiting = false
    /// The connection, while a drain runs: touched only by jobs running on it.
    private(set) nonisolated(unsafe) var database: Database?

    init(pool: DatabasePool) {
        self.pool = pool
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        if draining {
            if waiting { condition.signal() }
            condition.unlock()
            return
        }
        draining = true
        condition.unlock()
        pool.asyncWriteWithoutTransaction { db in self.drain(db) }
    }

    private func drain(_ db: Database) {
        database = db
        while let job = next(db) {
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    /// The next job; nil (and the access ends) when none waits and no transaction is open.
    private func next(_ db: Database) -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
            if !db.isInsideTransaction {
                draining = false
                database = nil
                return nil
            }
            waiting = true
            condition.wait()
            waiting = false
        }
        head += 1
        return jobs[head - 1]
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
