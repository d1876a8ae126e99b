import AsyncHTTPClient
import Crypto
import Foundation
import HeraldTestSupport
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import _CryptoExtras

/// `herald-bench engine`: the notification engine end to end, from `POST /v1/events` to a local
/// APNs stand-in (in this process, lean HTTP/2, timing what it receives), against a release
/// `herald serve` it starts itself.
///
///   herald-bench engine --herald <path> --database <url> [--users 10000] [--events 100000] [--rate 1000] [--seconds 15] [--throughput-only] [--json <file>]
///
/// Scenarios: 1:1 messages posted as fast as they are accepted (events/s, pushes/s, server CPU per
/// push); one message to a group of every user (time to its last push); 1:1 messages at a steady
/// rate (latency from the POST to APNs, p50 and p99).
enum EngineBench {
    struct Results: Encodable {
        var backend: String
        var users: Int
        var events: Int
        var acceptedPerSecond = 0.0
        var pushesPerSecond = 0.0
        var serverCPUMicrosecondsPerPush = 0.0
        var serverPeakRSSMiB = 0.0
        var groupMembers = 0
        var groupSeconds = 0.0
        var latencyRate = 0
        var latencyP50Milliseconds = 0.0
        var latencyP99Milliseconds = 0.0
        var latencySamples = 0
        /// The app's `burstWindowSeconds` (0: off).
        var burstWindowSeconds = 0
    }

    /// - Parameter fcm: every user has an Android phone (FCM), and only the 1:1 throughput is measured.
    /// The `i`-th of a stream of 1:1 message events among `uids`, as posted to `/v1/events`: senders
    /// in turn, each to another user (never themselves), the recipients spread over the users.
    static func directMessage(_ i: Int, id: Any, among uids: [String]) -> [String: Any] {
        let sender = uids[i % uids.count]
        let receiver = uids[(i * 7 + 1) % uids.count]
        return [
            "type": "message",
            "message": [
                "id": id, "text": "Message \(i)", "sender": sender,
                "receiver": receiver == sender ? uids[(i + 1) % uids.count] : receiver, "receiverType": "user",
            ],
        ]
    }

    static func run(fcm: Bool = false) async throws {
        let heraldPath = argument("--herald")!
        let database = argument("--database")!
        let userCount = Int(argument("--users", "10000")!)!
        let eventCount = Int(argument("--events", "100000")!)!
        let rate = Int(argument("--rate", "1000")!)!
        let duration = Int(argument("--seconds", "15")!)!
        // With bursts on, only the 1:1 throughput is measured (a later phase's messages would wait in windows).
        let burst = Int(argument("--burst", "0")!)!
        // Only the 1:1 throughput (A/B runs of one change).
        let throughputOnly = CommandLine.arguments.contains("--throughput-only")
        var results = Results(backend: database.hasPrefix("postgres") ? "postgres" : "sqlite", users: userCount, events: eventCount)

        // The stand-in counts every push, and times the tagged ones of the latency run.
        let standIn = try await APNsStandIn.start(recordRequests: false, lean: true)
        let key = P256.Signing.PrivateKey()
        standIn.trust(keyId: "BENCH12345", publicKey: key.publicKey)
        let received = NIOLockedValueBox(0)
        let arrivals = NIOLockedValueBox<[String: ContinuousClock.Instant]?>(nil)
        standIn.observe { request in
            received.withLockedValue { $0 += 1 }
            arrivals.withLockedValue { times in
                guard times != nil, let payload = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
                    let tag = payload["tag"] as? String, tag.hasPrefix("9")
                else { return }
                times?[tag] = .now
            }
        }

        let fcmStandIn = try await FCMStandIn.start(recordMessages: false, lean: true)
        fcmStandIn.trust(
            clientEmail: Fixtures.serviceAccount()["client_email"] as! String,
            publicKey: try _RSA.Signing.PrivateKey(pemRepresentation: Fixtures.rsaKeyPEM).publicKey
        )
        fcmStandIn.observe { _ in received.withLockedValue { $0 += 1 } }
        let bench = try await BenchServer.start(heraldPath: heraldPath, database: database, standIn: standIn, fcm: fcmStandIn, name: "engine")
        let server = bench.process
        let http = bench.http
        let base = bench.base

        defer {
            if server.isRunning {
                server.terminate()
                server.waitUntilExit()
            }
        }

        // An app, its APNs credential, the users, one session and iPhone each, and a group of them all.
        let apiKey = try await bench.makeApp(key: key)
        results.burstWindowSeconds = burst
        if burst > 0 { _ = try await bench.call(.PATCH, "/v1/push/settings", bearer: apiKey, ["burstWindowSeconds": burst]) }
        let uids = (0..<userCount).map { String(format: "u%06d", $0) }
        let seeded = ContinuousClock.now
        _ = try await bench.seed(apiKey: apiKey, uids: uids, android: fcm)
        _ = try await bench.call(.PUT, "/v1/groups/everyone", bearer: apiKey, ["name": "Everyone"])
        for start in stride(from: 0, to: uids.count, by: 10_000) {
            _ = try await bench.call(
                .POST,
                "/v1/groups/everyone/members",
                bearer: apiKey,
                ["uids": Array(uids[start..<min(start + 10_000, uids.count)])]
            )
        }
        print(
            String(
                format: "seeded %d users with a session and an iPhone each in %.0f s (%@)",
                userCount,
                seconds(since: seeded),
                results.backend as NSString
            )
        )

        func waitFor(_ target: Int, timeout: Duration = .seconds(600)) async throws {
            let deadline = ContinuousClock.now + timeout
            while received.withLockedValue({ $0 }) < target, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        }

        // 1. Throughput of 1:1 messages.
        // The posts are encoded before the clock starts: the bench's encoder shares the cores.
        let bodies = try stride(from: 0, to: eventCount, by: 500).map { start in
            let events = (start..<min(start + 500, eventCount)).map { i in Self.directMessage(i, id: i + 1, among: uids) }
            return ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["events": events]))
        }
        let baseline = received.withLockedValue { $0 }
        let cpuBefore = RealtimeBench.serverCPUSeconds(String(server.processIdentifier))
        let started = ContinuousClock.now
        let next = NIOLockedValueBox(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    while true {
                        let index = next.withLockedValue { value -> Int in
                            defer { value += 1 }
                            return value
                        }
                        guard index < bodies.count else { return }
                        let status = try await bench.post("/v1/events", bearer: apiKey, json: bodies[index])
                        guard status == 202 else { throw TestFailure("POST /v1/events: \(status)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        let accepted = seconds(since: started)
        try await waitFor(baseline + eventCount)
        let total = seconds(since: started)
        let pushes = received.withLockedValue { $0 } - baseline
        results.acceptedPerSecond = Double(eventCount) / accepted
        results.pushesPerSecond = Double(pushes) / total
        results.serverCPUMicrosecondsPerPush =
            (RealtimeBench.serverCPUSeconds(String(server.processIdentifier)) - cpuBefore) * 1e6 / Double(max(1, pushes))
        print(
            String(
                format:
                    "1:1 messages: %d events accepted in %.1f s (%.0f events/s); %d pushes at %@ in %.1f s (%.0f pushes/s); server CPU %.0f µs per push",
                eventCount,
                accepted,
                results.acceptedPerSecond,
                pushes,
                fcm ? "FCM" : "APNs",
                total,
                results.pushesPerSecond,
                results.serverCPUMicrosecondsPerPush
            )
        )
        if fcm || burst > 0 || throughputOnly {
            results.serverPeakRSSMiB = peakRSS(of: server.processIdentifier)
            try write(results)
            await standIn.shutdown()
            await fcmStandIn.shutdown()
            try await bench.stop()
            return
        }

        // 2. One message to a group of every user.
        let groupBaseline = received.withLockedValue { $0 }
        let groupStart = ContinuousClock.now
        _ = try await bench.call(
            .POST,
            "/v1/events",
            bearer: apiKey,
            [
                "type": "message",
                "message": [
                    "id": 5_000_000, "text": "All hands", "sender": uids[0],
                    "receiver": "everyone", "receiverType": "group",
                ],
            ]
        )
        try await waitFor(groupBaseline + uids.count - 1)
        results.groupMembers = uids.count
        results.groupSeconds = seconds(since: groupStart)
        print(String(format: "group of %d: last push %.2f s after the event was posted", uids.count, results.groupSeconds))

        // 3. Latency at a steady rate: 10 events every 10 ms.
        arrivals.withLockedValue { $0 = [:] }
        var posted: [String: ContinuousClock.Instant] = [:]
        let latencyBaseline = received.withLockedValue { $0 }
        let tick = Duration.milliseconds(10)
        let perTick = max(1, rate / 100)
        let latencyStart = ContinuousClock.now
        var sent = 0
        for slot in 0..<(duration * 100) {
            let due = latencyStart + tick * slot
            if due > .now { try await Task.sleep(until: due) }
            var events: [[String: Any]] = []
            for k in 0..<perTick {
                let id = 90_000_000 + slot * perTick + k
                let sender = uids[id % uids.count]
                let receiver = uids[(id / 3) % uids.count]
                events.append([
                    "type": "message",
                    "message": [
                        "id": id, "text": "Now", "sender": sender,
                        "receiver": receiver == sender ? uids[(id + 1) % uids.count] : receiver, "receiverType": "user",
                    ],
                ])
                posted[String(id)] = .now
            }
            sent += events.count
            var request = HTTPClientRequest(url: base + "/v1/events")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["events": events])))
            let post = request
            Task { _ = try? await http.execute(post, timeout: .seconds(60)).body.collect(upTo: 1 << 20) }
        }
        try await waitFor(latencyBaseline + sent, timeout: .seconds(120))
        let times = arrivals.withLockedValue { $0 ?? [:] }
        var latencies = posted.compactMap { tag, start in times[tag].map { ms($0 - start) } }.sorted()
        if latencies.isEmpty { latencies = [0] }
        results.latencyRate = perTick * 100
        results.latencySamples = latencies.count
        results.latencyP50Milliseconds = latencies[latencies.count / 2]
        results.latencyP99Milliseconds = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        results.serverPeakRSSMiB = peakRSS(of: server.processIdentifier)
        print(
            String(
                format: "latency at %d events/s: POST → APNs p50 %.1f ms, p99 %.1f ms (%d samples); server peak RSS %.0f MiB",
                results.latencyRate,
                results.latencyP50Milliseconds,
                results.latencyP99Milliseconds,
                results.latencySamples,
                results.serverPeakRSSMiB
            )
        )

        try write(results)
        await standIn.shutdown()
        await fcmStandIn.shutdown()
        try await bench.stop()
    }

    static func write(_ results: Results) throws {
        guard let file = argument("--json") else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(results).write(to: URL(fileURLWithPath: file))
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func ms(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func peakRSS(of pid: Int32) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }
}
