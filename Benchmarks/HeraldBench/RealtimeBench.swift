import AsyncHTTPClient
import Foundation
import HeraldModels
import HeraldTestSupport
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// `herald-bench ws`: opens one WebSocket per session token against a running Herald, reports the
/// server's RSS idle with them all open, then times fan-outs of one envelope to every session
/// (sent with `POST /v1/realtime/messages`, counted when the last socket has it).
///
///   herald-bench ws --port <n> --key <apiKey> --tokens <file> --uids <file> --server-pid <pid> [--rounds 20]
enum RealtimeBench {
    static func serverRSSMiB(_ pid: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }

    static func serverCPUSeconds(_ pid: String) -> Double {
        HeraldProcess.cpuSeconds(ofProcess: Int32(pid) ?? 0)
    }

    static func run() async throws {
        let port = argument("--port")!
        let key = argument("--key")!
        let pid = argument("--server-pid")!
        let rounds = Int(argument("--rounds", "20")!)!
        let tokens = try String(contentsOfFile: argument("--tokens")!, encoding: .utf8).split(separator: "\n").map(String.init)
        let uids = try String(contentsOfFile: argument("--uids")!, encoding: .utf8).split(separator: "\n").map(String.init)
        let baseline = serverRSSMiB(pid)

        /// Per round, how many sockets have its envelope.
        let received = NIOLockedValueBox<[Int: Int]>([:])
        let hellos = NIOLockedValueBox(0)
        let failures = NIOLockedValueBox(0)
        var logger = Logger(label: "bench.ws")
        logger.logLevel = .critical
        let frozenLogger = logger
        var clients: [Task<Void, Never>] = []
        let opened = ContinuousClock.now
        for (index, token) in tokens.enumerated() {
            var configuration = WebSocketClientConfiguration()
            configuration.additionalHeaders[.authorization] = "Bearer \(token)"
            let frozen = configuration
            clients.append(
                Task {
                    do {
                        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/v1/me/ws", configuration: frozen, logger: frozenLogger) {
                            inbound,
                            _,
                            _ in
                            for try await message in inbound.messages(maxSize: 1 << 16) {
                                guard case .text(let text) = message,
                                    let envelope = try? JSONDecoder().decode(RealtimeEnvelope.self, from: Data(text.utf8))
                                else { continue }
                                switch envelope {
                                case .hello: hellos.withLockedValue { $0 += 1 }
                                case .custom(let custom):
                                    if case .number(let round) = custom.data["round"] { received.withLockedValue { $0[Int(round), default: 0] += 1 } }
                                default: break
                                }
                            }
                        }
                    } catch {
                        failures.withLockedValue { $0 += 1 }
                    }
                }
            )
            // Open in waves so that the accept queue is not flooded.
            if index % 200 == 199 { try await Task.sleep(for: .milliseconds(20)) }
        }
        while hellos.withLockedValue({ $0 }) + failures.withLockedValue({ $0 }) < tokens.count {
            try await Task.sleep(for: .milliseconds(50))
        }
        let openSeconds = (ContinuousClock.now - opened).components.seconds
        try await Task.sleep(for: .seconds(3))
        let idle = serverRSSMiB(pid)
        print(
            String(
                format: "websockets: %d open (%d failed) in %ld s; server RSS %.0f MiB before, %.0f MiB with them idle (%.1f KiB per socket)",
                hellos.withLockedValue { $0 },
                failures.withLockedValue { $0 },
                openSeconds,
                baseline,
                idle,
                (idle - baseline) * 1024 / Double(max(1, tokens.count))
            )
        )

        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        var body = ByteBuffer()
        var times: [Double] = []
        let cpuBefore = serverCPUSeconds(pid)
        let started = ContinuousClock.now
        for round in 1...rounds {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/realtime/messages")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(key)")
            request.headers.add(name: "Content-Type", value: "application/json")
            body = ByteBuffer(
                data: try JSONSerialization.data(withJSONObject: ["uids": uids, "data": ["round": round, "text": "fan-out \(round)"]])
            )
            request.body = .bytes(body)
            let sent = ContinuousClock.now
            let response = try await http.execute(request, timeout: .seconds(60))
            _ = try await response.body.collect(upTo: 8 << 20)
            while received.withLockedValue({ $0[round] ?? 0 }) < hellos.withLockedValue({ $0 }) {
                if ContinuousClock.now - sent > .seconds(30) { break }
                try await Task.sleep(for: .milliseconds(1))
            }
            let elapsed = ContinuousClock.now - sent
            times.append(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
        }
        let total = ContinuousClock.now - started
        let totalSeconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
        let delivered = received.withLockedValue { $0.values.reduce(0, +) }
        let sorted = times.sorted()
        print(
            String(
                format:
                    "fan-out: %d rounds to %d sockets, %d envelopes delivered in %.2f s = %.0f envelopes/s; per round p50 %.0f ms, max %.0f ms; server CPU %.1f µs per envelope",
                rounds,
                hellos.withLockedValue { $0 },
                delivered,
                totalSeconds,
                Double(delivered) / totalSeconds,
                sorted[sorted.count / 2] * 1000,
                sorted.last! * 1000,
                (serverCPUSeconds(pid) - cpuBefore) * 1e6 / Double(max(1, delivered))
            )
        )
        try await http.shutdown()
        for client in clients { client.cancel() }
    }
}
