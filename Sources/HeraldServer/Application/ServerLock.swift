import Foundation
import HeraldCore
import HeraldStorage

/// One `herald serve` per SQLite file. A starting server takes over every claim it did not make
/// (its predecessor's, left by a crash), which is right only when no other server is using the
/// file: a second server on it is refused at start. The lock is an advisory `flock` on
/// `<file>.lock`, held for the life of the process and dropped by the kernel when it ends,
/// however it ends. (PostgreSQL is made for several processes; it needs no lock.)
struct ServerLock: ~Copyable {
    private let descriptor: Int32

    static func acquire(for database: DatabaseURL) throws -> ServerLock? {
        guard case .sqlite(let path) = database else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let descriptor = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw HeraldError(.internal, "cannot open \(path).lock: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw HeraldError(
                .conflict,
                code: "database_in_use",
                "another herald serve is using \(path): one server process owns a SQLite database (use PostgreSQL for several)"
            )
        }
        return ServerLock(descriptor: descriptor)
    }

    deinit {
        close(descriptor)
    }
}
