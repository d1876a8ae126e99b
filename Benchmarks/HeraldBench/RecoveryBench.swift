import Crypto
import Foundation
import HeraldTestSupport
import NIOConcurrencyHelpers
import NIOCore

/// `herald-bench recovery`: how long pushes are held, and how many go twice, when the server is
/// stopped in the middle of a load and started again on the same database — killed (SIGKILL, a
/// crash) and stopped gracefully (SIGTERM, what `systemctl restart` and every deploy send).
///
///   herald-bench recovery --herald <path> --database <url> [--users 2000] [--events 16000] [--stops 2] [--json <file>]
///
/// The events (1:1 messages, each with its own id, which the push carries as `tag`) are all
/// accepted first; the APNs stand-in answers each push after 5 ms, so they are still being pushed
/// when the server is stopped (after a fifth of them, then after each further fifth). Reported per
/// signal: the time from the last restart to the last push, and the pushes sent twice.
///
/// On PostgreSQL both signals run on one database, so each signal's events carry tags of their
/// own (`k…`, `t…`): a push of the SIGKILL run taken over late, by a server of the SIGTERM run,
/// is not counted as the SIGTERM run's. Once every push has arrived, the count waits until none
/// has arrived for a claim timeout and more (7 s), so pushes sent again by a takeover after the
/// last one arrived are counted too.
enum RecoveryBench {
    struct Stop: Encodable {
        var signal: String
        var stops: Int
        var events = 0
        var arrived = 0
        var sentTwice = 0
        var lastPushAfterRestartSeconds = 0.0
    }

    struct Results: Encodable {
        var backend: String
        var kill: Stop
        var term: Stop
    }

    static func run() async throws {
        let heraldPath = argument("--herald")!
        let database = argument("--database")!
        let userCount = Int(argument("--users", "2000")!)!
        let eventCount = Int(argument("--events", "16000")!)!
        let stops = Int(argument("--stops", "2")!)!
        let backend = database.hasPrefix("postgres") ? "postgres" : "sqlite"
        var results = Results(backend: backend, kill: Stop(signal: "SIGKILL", stops: stops), term: Stop(signal: "SIGTERM", stops: stops))
        for signal in [SIGKILL, SIGTERM] {
            let stop = try await run(
                signal: signal,
                stops: stops,
                heraldPath: heraldPath,
                database: databaseURL(for: database, signal),
                users: userCount,
                events: eventCount
            )
            if signal == SIGKILL { results.kill = stop } else { results.term = stop }
            print(
                String(
                    format: "%@ ×%d: %d of %d pushes arrived, %d sent twice; last push %.1f s after the last restart",
                    stop.signal as NSString,
                    stops,
                    stop.arrived,
                    stop.events,
                    stop.sentTwice,
                    stop.lastPushAfterRestartSeconds
                )
            )
        }
        if let file = argument("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(results).write(to: URL(fileURLWithPath: file))
        }
    }

    /// Each signal gets a database of its own (SQLite: another file beside the one given).
    static func databaseURL(for url: String, _ signal: Int32) -> String {
        guard url.hasPrefix("sqlite://") else { return url }
        return url.replacingOccurrences(of: ".sqlite", with: signal == SIGKILL ? "-kill.sqlite" : "-term.sqlite")
    }

    static func run(
        signal: Int32,
        stops: Int,
        heraldPath: String,
        database: String,
        users userCount: Int,
        events eventCount: Int
    ) async throws -> Stop {
        var result = Stop(signal: signal == SIGKILL ? "SIGKILL" : "SIGTERM", stops: stops, events: eventCount)
        let tag = signal == SIGKILL ? "k" : "t"
        let standIn = try await APNsStandIn.start(recordRequests: false, lean: true)
        let key = P256.Signing.PrivateKey()
        standIn.trust(keyId: "BENCH12345", publicKey: key.publicKey)
        standIn.slowDown(.milliseconds(5))
        // Per tag, how often it arrived; when the last arrival was; when the last new tag arrived.
        let arrivals = NIOLockedValueBox<(counts: [String: Int], last: ContinuousClock.Instant, lastNew: ContinuousClock.Instant)>(
            ([:], .now, .now)
        )
        standIn.observe { request in
            guard let payload = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any], let pushTag = payload["tag"] as? String,
                pushTag.hasPrefix(tag)
            else { return }
            arrivals.withLockedValue {
                $0.counts[pushTag, default: 0] += 1
                $0.last = .now
                if $0.counts[pushTag] == 1 { $0.lastNew = .now }
            }
        }
        var bench = try await BenchServer.start(heraldPath: heraldPath, database: database, standIn: standIn, name: "recovery")
        let apiKey = try await bench.makeApp(key: key)
        let uids = (0..<userCount).map { String(format: "r%06d", $0) }
        _ = try await bench.seed(apiKey: apiKey, uids: uids)
        // Every event accepted before the first stop.
        for start in stride(from: 0, to: eventCount, by: 500) {
            let events = (start..<min(start + 500, eventCount)).map { i in EngineBench.directMessage(i, id: "\(tag)\(i)", among: uids) }
            let (status, _) = try await bench.call(.POST, "/v1/events", bearer: apiKey, ["events": events])
            guard status == 202 else { throw TestFailure("POST /v1/events: \(status)") }
        }
        var restarted = ContinuousClock.now
        for stop in 1...stops {
            let threshold = eventCount * stop / (stops + 3)
            let deadline = ContinuousClock.now + .seconds(120)
            while arrivals.withLockedValue({ $0.counts.count }) < threshold, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
            kill(bench.process.processIdentifier, signal)
            bench.process.waitUntilExit()
            restarted = .now
            bench = try await bench.restarted()
        }
        let deadline = ContinuousClock.now + .seconds(180)
        while arrivals.withLockedValue({ $0.counts.count }) < eventCount, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        // Pushes sent again after the last one arrived (claims taken over from a killed process).
        let quiet = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now - arrivals.withLockedValue({ $0.last }) < .seconds(7), ContinuousClock.now < quiet {
            try await Task.sleep(for: .milliseconds(100))
        }
        let (counts, lastNew) = arrivals.withLockedValue { ($0.counts, $0.lastNew) }
        result.arrived = counts.count
        result.sentTwice = counts.values.reduce(0) { $0 + max(0, $1 - 1) }
        // 0 when the stopping process itself sent the last push (a graceful stop finishing its work).
        result.lastPushAfterRestartSeconds = max(0, EngineBench.seconds(since: restarted) - EngineBench.seconds(since: lastNew))
        await standIn.shutdown()
        try await bench.stop()
        return result
    }
}
