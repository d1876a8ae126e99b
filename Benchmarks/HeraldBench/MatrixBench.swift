import AsyncHTTPClient
import Crypto
import Foundation
import HeraldTestSupport
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// `herald-bench matrix`: Herald's Matrix push gateway under a homeserver's load — notifies
/// posted as a load generator (not Synapse, which pushes ~40 notifies/s per pusher) to a release
/// `herald serve`, each answered after its pushes reached the APNs stand-in: 1 device per notify,
/// then 10 per notify (requests/s, pushes/s, server CPU per push).
///
///   herald-bench matrix --herald <path> --database <url> [--notifies 20000] [--concurrency 64]
///
/// `herald-bench webpush`: 1:1 message events to users whose device is a browser's Web Push
/// subscription, sealed (RFC 8291) and signed (VAPID) for a local HTTP/2 push service.
///
///   herald-bench webpush --herald <path> --database <url> [--users 10000] [--events 50000]
enum MatrixBench {
    /// What `--json` gets: each phase's figures by name.
    static func write(_ results: [String: [String: Double]]) throws {
        guard let file = argument("--json") else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(results).write(to: URL(fileURLWithPath: file))
    }

    static func run() async throws {
        let heraldPath = argument("--herald")!
        let database = argument("--database")!
        let notifies = Int(argument("--notifies", "20000")!)!
        let concurrency = Int(argument("--concurrency", "64")!)!
        let standIn = try await APNsStandIn.start(recordRequests: false, lean: true)
        let key = P256.Signing.PrivateKey()
        standIn.trust(keyId: "BENCH12345", publicKey: key.publicKey)
        let received = NIOLockedValueBox(0)
        standIn.observe { _ in received.withLockedValue { $0 += 1 } }
        let bench = try await BenchServer.start(heraldPath: heraldPath, database: database, standIn: standIn, name: "matrix")
        defer {
            if bench.process.isRunning {
                bench.process.terminate()
                bench.process.waitUntilExit()
            }
        }
        let apiKey = try await bench.makeApp(key: key)
        // An app id of this run's own (a database kept from an earlier run holds that one's).
        let matrixAppId = "im.vector.app.ios.bench\(getpid())"
        let bound = try await bench.call(.PUT, "/v1/matrix/app-ids/\(matrixAppId).*", bearer: apiKey, ["providerId": "apns-1"])
        guard bound.0 == 200 else { throw TestFailure("bind: \(bound)") }
        let backend = database.hasPrefix("postgres") ? "postgres" : "sqlite"
        var results: [String: [String: Double]] = [:]
        for devices in [1, 10] {
            let count = devices == 1 ? notifies : notifies / 10
            // Bodies encoded before the clock starts: the bench shares the cores.
            let bodies = try (0..<count).map { index in
                let list = (0..<devices).map { device -> [String: Any] in
                    var token = [UInt8](repeating: 0, count: 32)
                    withUnsafeBytes(of: UInt64(devices * 1_000_000 + index * devices + device).bigEndian) { token.replaceSubrange(24..<32, with: $0) }
                    return ["app_id": matrixAppId + ".prod", "pushkey": Data(token).base64EncodedString(), "data": [String: Any]()]
                }
                let notification: [String: Any] = [
                    "event_id": "$bench\(devices)_\(index)", "room_id": "!room\(index % 500):bench", "type": "m.room.message",
                    "sender": "@u\(index % 1000):bench", "sender_display_name": "User \(index % 1000)", "room_name": "Room \(index % 500)",
                    "prio": "high", "content": ["msgtype": "m.text", "body": "Message \(index)"], "counts": ["unread": index % 9 + 1],
                    "devices": list,
                ]
                return ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["notification": notification]))
            }
            let baseline = received.withLockedValue { $0 }
            let cpuBefore = RealtimeBench.serverCPUSeconds(String(bench.process.processIdentifier))
            let started = ContinuousClock.now
            let next = NIOLockedValueBox(0)
            let rejected = NIOLockedValueBox(0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        while true {
                            let index = next.withLockedValue { value -> Int in
                                defer { value += 1 }
                                return value
                            }
                            guard index < bodies.count else { return }
                            var request = HTTPClientRequest(url: bench.base + "/_matrix/push/v1/notify")
                            request.method = .POST
                            request.headers.add(name: "Content-Type", value: "application/json")
                            request.body = .bytes(bodies[index])
                            let response = try await bench.http.execute(request, timeout: .seconds(120))
                            let answer = try await response.body.collect(upTo: 1 << 20)
                            guard response.status == .ok else { throw TestFailure("notify: \(response.status) \(String(buffer: answer))") }
                            if String(buffer: answer) != #"{"rejected":[]}"# { rejected.withLockedValue { $0 += 1 } }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let elapsed = EngineBench.seconds(since: started)
            let pushes = received.withLockedValue { $0 } - baseline
            let cpu = RealtimeBench.serverCPUSeconds(String(bench.process.processIdentifier)) - cpuBefore
            results["devices\(devices)"] = [
                "notifiesPerSecond": Double(count) / elapsed, "pushesPerSecond": Double(pushes) / elapsed,
                "serverCPUMicrosecondsPerPush": cpu * 1e6 / Double(max(1, pushes)),
            ]
            print(
                String(
                    format:
                        "matrix notify, %d device(s) each (%@): %d notifies answered in %.1f s = %.0f notifies/s, %d pushes at APNs = %.0f pushes/s; server CPU %.0f µs per push; %d answers with rejections",
                    devices,
                    backend as NSString,
                    count,
                    elapsed,
                    Double(count) / elapsed,
                    pushes,
                    Double(pushes) / elapsed,
                    cpu * 1e6 / Double(max(1, pushes)),
                    rejected.withLockedValue { $0 }
                )
            )
        }
        try write(results)
        await standIn.shutdown()
        try await bench.stop()
    }

    static func runWebPush() async throws {
        let heraldPath = argument("--herald")!
        let database = argument("--database")!
        let userCount = Int(argument("--users", "10000")!)!
        let eventCount = Int(argument("--events", "50000")!)!
        let standIn = try await APNsStandIn.start(recordRequests: false, lean: true)
        let key = P256.Signing.PrivateKey()
        standIn.trust(keyId: "BENCH12345", publicKey: key.publicKey)
        // A push service: any POST to /wpush/… is a message, answered 201.
        let received = NIOLockedValueBox(0)
        let pushService = try await HTTP2TestServer.start(lean: true) { _ in
            received.withLockedValue { $0 += 1 }
            return StandInResponse(status: 201)
        }
        let bench = try await BenchServer.start(
            heraldPath: heraldPath,
            database: database,
            standIn: standIn,
            name: "webpush",
            trusting: [pushService.certificate],
            environment: ["HERALD_WEBHOOK_ALLOW_PRIVATE": "1"]
        )
        defer {
            if bench.process.isRunning {
                bench.process.terminate()
                bench.process.waitUntilExit()
            }
        }
        let apiKey = try await bench.makeApp(key: key)
        let provider = try await bench.call(
            .POST,
            "/v1/push/providers",
            bearer: apiKey,
            ["providerId": "web-1", "kind": "webpush", "subject": "mailto:bench@acme.example"]
        )
        guard provider.0 == 201 else { throw TestFailure("webpush provider: \(provider)") }
        let uids = (0..<userCount).map { String(format: "u%06d", $0) }
        let sessions = try await bench.seed(apiKey: apiKey, uids: uids, devices: false)
        // Each user's browser: one subscription, its own key, at the local push service.
        let browser = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        let p256dh = browser.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<32 {
                group.addTask {
                    for index in stride(from: worker, to: uids.count, by: 32) {
                        let (status, body) = try await bench.call(
                            .POST,
                            "/v1/me/push-tokens",
                            bearer: sessions[index],
                            [
                                "platform": "web_push", "providerId": "web-1",
                                "subscription": [
                                    "endpoint": pushService.url + "/wpush/v2/\(uids[index])",
                                    "keys": ["p256dh": p256dh, "auth": "AAAAAAAAAAAAAAAAAAAAAA"],
                                ],
                            ]
                        )
                        guard status == 200 else { throw TestFailure("subscription: \(status) \(body)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        let bodies = try stride(from: 0, to: eventCount, by: 500).map { start in
            let events = (start..<min(start + 500, eventCount)).map { i in EngineBench.directMessage(i, id: i + 1, among: uids) }
            return ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["events": events]))
        }
        let baseline = received.withLockedValue { $0 }
        let cpuBefore = RealtimeBench.serverCPUSeconds(String(bench.process.processIdentifier))
        let started = ContinuousClock.now
        for body in bodies {
            let status = try await bench.post("/v1/events", bearer: apiKey, json: body)
            guard status == 202 else { throw TestFailure("POST /v1/events: \(status)") }
        }
        let deadline = ContinuousClock.now + .seconds(600)
        while received.withLockedValue({ $0 }) - baseline < eventCount, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let elapsed = EngineBench.seconds(since: started)
        let sends = received.withLockedValue { $0 } - baseline
        let pushes = sends
        let cpu = RealtimeBench.serverCPUSeconds(String(bench.process.processIdentifier)) - cpuBefore
        print(
            String(
                format:
                    "web push (%@): %d events → %d Web Push sends in %.1f s = %.0f sends/s; server CPU %.0f µs per push",
                (database.hasPrefix("postgres") ? "postgres" : "sqlite") as NSString,
                eventCount,
                sends,
                elapsed,
                Double(sends) / elapsed,
                cpu * 1e6 / Double(max(1, pushes))
            )
        )
        try write(["webpush": ["sendsPerSecond": Double(sends) / elapsed, "serverCPUMicrosecondsPerPush": cpu * 1e6 / Double(max(1, pushes))]])
        await standIn.shutdown()
        await pushService.shutdown()
        try await bench.stop()
    }
}
