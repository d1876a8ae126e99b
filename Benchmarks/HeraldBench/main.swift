import AsyncHTTPClient
import Crypto
import Foundation
import HeraldCore
import HeraldProviders
import HeraldTestSupport
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
// herald-bench: the provider hot path under load, against a local stand-in in another process.
//
//   herald-bench apns-standin [--full-stack]       prints "PORT <n> KEYID <id> PEMFILE <path> CAFILE <path>", serves until killed
//   herald-bench fcm-standin [--full-stack]        prints "PORT <n> ACCOUNT <service account file> CAFILE <path>", serves until killed
//   herald-bench fcm --url https://127.0.0.1:<n> --ca <file> --account <file> [--count 200000] [--devices 10000] [--concurrency 8] [--batch 50]
//   herald-bench apns --url https://127.0.0.1:<n> --ca <file> --key <pem file> [--count 200000] [--devices 10000] [--concurrency 8] [--batch 50]
//   herald-bench engine --herald <path> --database <url> [--users 10000] [--events 100000]   (EngineBench.swift)
//   herald-bench recovery --herald <path> --database <url> [--users 2000] [--events 16000]   (RecoveryBench.swift)
//   herald-bench ws --port <n> --key <apiKey> --tokens <file> --uids <file> --server-pid <pid> [--rounds 20]   (RealtimeBench.swift)
//
// The client process reports pushes/s, CPU µs per push (getrusage), peak RSS and TLS connections.
import _CryptoExtras

#if canImport(Glibc)
import Glibc
#endif

func argument(_ name: String, _ fallback: String? = nil) -> String? {
    let args = CommandLine.arguments
    if let index = args.firstIndex(of: name), index + 1 < args.count { return args[index + 1] }
    return fallback
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func peakRSSMiB() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// Why pushes were not delivered, counted (printed when any were not).
let failures = NIOLockedValueBox<[String: Int]>([:])

func reportFailures() {
    let tally = failures.withLockedValue { $0 }
    if !tally.isEmpty {
        print("not delivered:", tally.sorted { $0.value > $1.value }.prefix(5).map { "\($0.value)× \($0.key)" }.joined(separator: "; "))
    }
}

switch CommandLine.arguments.dropFirst().first {
case "apns-standin":
    let standIn = try await APNsStandIn.start(recordRequests: false, lean: !CommandLine.arguments.contains("--full-stack"))
    let key = P256.Signing.PrivateKey()
    standIn.trust(keyId: "BENCH12345", publicKey: key.publicKey)
    let folder = TestScratch.folder
    let pem = folder.appendingPathComponent("key.p8")
    let ca = try standIn.certificate.writePEM()
    try key.pemRepresentation.write(to: pem, atomically: true, encoding: .utf8)
    // A provider token for load generators outside Swift (h2load), valid for the stand-in's hour.
    let authorization = try APNsTokenSigner(privateKeyPEM: key.pemRepresentation, keyId: "BENCH12345", teamId: "DEF123GHIJ").token().authorization
    FileHandle.standardOutput.write(
        Data("PORT \(standIn.port) KEYID BENCH12345 PEMFILE \(pem.path) CAFILE \(ca.path) JWT \(authorization.dropFirst("bearer ".count))\n".utf8)
    )
    while true { try await Task.sleep(for: .seconds(3600)) }

case "apns":
    let count = Int(argument("--count", "200000")!)!
    let devices = Int(argument("--devices", "10000")!)!
    let concurrency = Int(argument("--concurrency", "8")!)!
    let batch = Int(argument("--batch", "50")!)!
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.additionalTrustRoots = [.file(argument("--ca")!)]
    var endpoints = APNsEndpoints()
    endpoints.sandbox = HTTP2Endpoint(url: argument("--url")!)!
    let pem = try String(contentsOfFile: argument("--key")!, encoding: .utf8)
    let signer = try APNsTokenSigner(privateKeyPEM: pem, keyId: argument("--key-id", "BENCH12345")!, teamId: "DEF123GHIJ")
    let client = APNsClient(
        bundleId: "com.acme.app",
        production: false,
        authentication: .token(signer),
        tls: tls,
        endpoints: endpoints,
        maxConnections: Int(argument("--connections", "16")!)!
    )
    let hex = Array("0123456789abcdef")
    let tokens = (0..<devices).map { _ in String((0..<64).map { _ in hex[Int.random(in: 0..<16)] }) }
    let payload = ByteBuffer(
        string: #"{"aps":{"alert":{"title":"Ana","body":"Hello from Herald"},"sound":"default","mutable-content":1},"conversationId":"ana_user_bo"}"#
    )
    // Warm up: connections and the signed token.
    _ = await client.send(APNsNotification(deviceToken: tokens[0], payload: payload))
    let cpuStart = cpuSeconds()
    let start = ContinuousClock.now
    // `concurrency` senders, each with `batch` pushes in flight (as the delivery engine sends a
    // claimed batch of the outbox).
    let perWorker = count / concurrency / batch
    let delivered = await withTaskGroup(of: Int.self) { group in
        for worker in 0..<concurrency {
            group.addTask {
                var ok = 0
                for round in 0..<perWorker {
                    let first = (worker * perWorker + round) * batch
                    let notifications = (first..<first + batch).map { APNsNotification(deviceToken: tokens[$0 % tokens.count], payload: payload) }
                    for result in await client.send(notifications) {
                        if result.outcome == .delivered { ok += 1 } else { failures.withLockedValue { $0[result.reason ?? "?", default: 0] += 1 } }
                    }
                }
                return ok
            }
        }
        var total = 0
        for await ok in group { total += ok }
        return total
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let cpu = cpuSeconds() - cpuStart
    let sent = perWorker * batch * concurrency
    print(
        String(
            format:
                "apns (%d senders × batches of %d): %d sent, %d delivered in %.2f s = %.0f pushes/s; client CPU %.1f µs/push; peak RSS %.0f MiB; TLS connections %d",
            concurrency,
            batch,
            sent,
            delivered,
            seconds,
            Double(sent) / seconds,
            cpu * 1e6 / Double(sent),
            peakRSSMiB(),
            client.connectionsOpened
        )
    )
    await client.shutdown()

case "fcm-standin":
    let standIn = try await FCMStandIn.start(recordMessages: false, lean: !CommandLine.arguments.contains("--full-stack"))
    let key = try _RSA.Signing.PrivateKey(pemRepresentation: Fixtures.rsaKeyPEM)
    standIn.trust(clientEmail: Fixtures.serviceAccount()["client_email"] as! String, publicKey: key.publicKey)
    let folder = TestScratch.folder
    let account = folder.appendingPathComponent("service-account.json")
    let ca = try standIn.certificate.writePEM()
    try JSONSerialization.data(withJSONObject: Fixtures.serviceAccount()).write(to: account)
    let port = standIn.url.split(separator: ":").last!
    FileHandle.standardOutput.write(Data("PORT \(port) ACCOUNT \(account.path) CAFILE \(ca.path)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }

case "fcm":
    let count = Int(argument("--count", "200000")!)!
    let devices = Int(argument("--devices", "10000")!)!
    let concurrency = Int(argument("--concurrency", "8")!)!
    let batch = Int(argument("--batch", "50")!)!
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.additionalTrustRoots = [.file(argument("--ca")!)]
    var endpoints = FCMEndpoints()
    endpoints.send = HTTP2Endpoint(url: argument("--url")!)!
    endpoints.tokenURL = argument("--url")! + "/token"
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
    let account = try ServiceAccount(json: String(contentsOfFile: argument("--account")!, encoding: .utf8))
    let client = FCMClient(account: account, endpoints: endpoints, tls: tls, http: http, maxConnections: Int(argument("--connections", "16")!)!)
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
    let tokens = (0..<devices).map { _ in
        String((0..<22).map { _ in alphabet[Int.random(in: 0..<64)] }) + ":APA91b" + String((0..<134).map { _ in alphabet[Int.random(in: 0..<64)] })
    }
    let message: @Sendable (String) -> FCMPush = { token in
        FCMPush(
            token: token,
            data: ["type": "chat", "conversationId": "ana_user_bo", "sender": "ana"],
            notification: .init(title: "Ana", body: "Hello from Herald")
        )
    }
    _ = await client.send(message(tokens[0]))
    let cpuStart = cpuSeconds()
    let start = ContinuousClock.now
    let perWorker = count / concurrency / batch
    let delivered = await withTaskGroup(of: Int.self) { group in
        for worker in 0..<concurrency {
            group.addTask {
                var ok = 0
                for round in 0..<perWorker {
                    let first = (worker * perWorker + round) * batch
                    let messages = (first..<first + batch).map { message(tokens[$0 % tokens.count]) }
                    for result in await client.send(messages) {
                        if result.outcome == .delivered { ok += 1 } else { failures.withLockedValue { $0[result.reason ?? "?", default: 0] += 1 } }
                    }
                }
                return ok
            }
        }
        var total = 0
        for await ok in group { total += ok }
        return total
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let cpu = cpuSeconds() - cpuStart
    let sent = perWorker * batch * concurrency
    print(
        String(
            format:
                "fcm (%d senders × batches of %d): %d sent, %d delivered in %.2f s = %.0f pushes/s; client CPU %.1f µs/push; peak RSS %.0f MiB; TLS connections %d",
            concurrency,
            batch,
            sent,
            delivered,
            seconds,
            Double(sent) / seconds,
            cpu * 1e6 / Double(sent),
            peakRSSMiB(),
            client.connectionsOpened
        )
    )
    reportFailures()
    await client.shutdown()
    try await http.shutdown()

case "ws":
    try await RealtimeBench.run()

case "engine":
    try await EngineBench.run()

case "engine-fcm":
    try await EngineBench.run(fcm: true)

case "feed":
    try await FeedBench.run()

case "matrix":
    try await MatrixBench.run()

case "webpush":
    try await MatrixBench.runWebPush()

case "recovery":
    try await RecoveryBench.run()

default:
    print("usage: herald-bench apns-standin | apns --url URL --ca FILE --key FILE [--count N] [--devices N] [--concurrency N]")
}
