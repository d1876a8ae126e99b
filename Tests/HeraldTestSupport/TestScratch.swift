import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the tests and the benchmarks keep their files (databases, keys, CA files, logs of `herald`
/// processes): one folder for the whole process, `herald-tests-<pid>` in the temporary directory, removed when
/// the process exits. A run that dies before its end (killed, crashed) leaves its folder; the next
/// run removes it, as it removes every `herald-tests-<pid>` whose process has ended. Set
/// `HERALD_TEST_KEEP_FILES=1` to keep this run's files for a look afterwards.
public enum TestScratch {
    public static let folder: URL = {
        let temporary = FileManager.default.temporaryDirectory
        if let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) {
            for name in names where name.hasPrefix(prefix) {
                guard let pid = Int32(name.dropFirst(prefix.count)), hasEnded(pid) else { continue }
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
        let folder = temporary.appendingPathComponent(prefix + String(getpid()))
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["HERALD_TEST_KEEP_FILES"] == nil {
            atexit { try? FileManager.default.removeItem(at: TestScratch.folder) }
        }
        return folder
    }()

    /// A new path in the folder, `<name>-<UUID><suffix>` (`suffix` e.g. ".sqlite"); nothing is
    /// created there.
    public static func path(_ name: String, suffix: String = "") -> URL {
        folder.appendingPathComponent("\(name)-\(UUID().uuidString)\(suffix)")
    }

    /// Whether no process has this id (any more): what names a test run's leftovers.
    public static func hasEnded(_ pid: Int32) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }

    private static let prefix = "herald-tests-"
}
