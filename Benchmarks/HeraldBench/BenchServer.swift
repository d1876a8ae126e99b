import AsyncHTTPClient
import Crypto
import Foundation
import HeraldTestSupport
import NIOCore
import NIOHTTP1

/// A release `herald serve` started by the bench, its providers aimed at an in-process APNs
/// stand-in, with a JSON client and the set-up every scenario needs.
struct BenchServer {
    let process: Process
    let environment: [String: String]
    let heraldPath: String
    let base: String
    let http: HTTPClient

    static func start(
        heraldPath: String,
        database: String,
        standIn: APNsStandIn,
        fcm: FCMStandIn? = nil,
        name: String,
        trusting extra: [TestCertificate] = [],
        environment more: [String: String] = [:]
    ) async throws -> BenchServer {
        let port = try HeraldProcess.freePort()
        let folder = TestScratch.folder.appendingPathComponent("herald-\(name)-bench")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let environment = ProcessInfo.processInfo.environment.merging(
            [
                "HERALD_DATABASE_URL": database, "HERALD_DATA_DIR": folder.path, "HERALD_SECRET_KEY": String(repeating: "ef", count: 32),
                "HERALD_APNS_SANDBOX_URL": standIn.endpointURL,
                "HERALD_CA_FILE": try caFile([standIn.certificate] + (fcm.map { [$0.certificate] } ?? []) + extra), "HERALD_LOG_LEVEL": "error",
                // Load comes from one key and a few tokens: the per-credential rate limits would be what is measured.
                "HERALD_RATE_LIMIT": "0", "HERALD_USER_RATE_LIMIT": "0",
            ].merging(fcm.map { ["HERALD_FCM_URL": $0.url, "HERALD_FCM_TOKEN_URL": $0.tokenURL] } ?? [:]) { $1 }.merging(more) { $1 }
        ) { $1 }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: heraldPath)
        process.arguments = ["serve", "--port", String(port), "--host", "127.0.0.1"]
        process.environment = environment
        try process.run()
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64))
        )
        let server = BenchServer(process: process, environment: environment, heraldPath: heraldPath, base: "http://127.0.0.1:\(port)", http: http)
        for _ in 0..<300 {
            if (try? await server.call(.GET, "/ready", bearer: nil, nil))?.0 == 200 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return server
    }

    /// One PEM file trusting every stand-in.
    static func caFile(_ certificates: [TestCertificate]) throws -> String {
        let file = TestScratch.path("herald-bench-ca", suffix: ".pem")
        try certificates.map { try String(contentsOf: $0.writePEM(), encoding: .utf8) }.joined().write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    func call(_ method: HTTPMethod, _ path: String, bearer: String?, _ body: Any?) async throws -> (Int, [String: Any]) {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await http.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 32 << 20)
        return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: Data(buffer: bytes)) as? [String: Any]) ?? [:])
    }

    /// A body already encoded: what a load loop sends, so that the bench's JSON encoder is not
    /// what is measured. The status.
    func post(_ path: String, bearer: String, json body: ByteBuffer) async throws -> Int {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(body)
        let response = try await http.execute(request, timeout: .seconds(120))
        _ = try await response.body.collect(upTo: 32 << 20)
        return Int(response.status.code)
    }

    /// An app (by the CLI, as an operator would) with the APNs credential `apns-1`; its API key.
    func makeApp(key: P256.Signing.PrivateKey) async throws -> String {
        let create = Process()
        create.executableURL = URL(fileURLWithPath: heraldPath)
        create.arguments = ["apps", "create", "--name", "bench", "--json"]
        create.environment = environment
        let pipe = Pipe()
        create.standardOutput = pipe
        try create.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        create.waitUntilExit()
        guard let apiKey = (try JSONSerialization.jsonObject(with: output) as? [String: Any])?["apiKey"] as? String else {
            throw TestFailure("apps create failed")
        }
        let provider = try await call(
            .POST,
            "/v1/push/providers",
            bearer: apiKey,
            [
                "providerId": "apns-1", "kind": "apns", "auth": "token", "keyId": "BENCH12345",
                "teamId": "DEF123GHIJ", "bundleId": "com.acme.app", "privateKey": key.pemRepresentation,
            ]
        )
        guard provider.0 == 201 else { throw TestFailure("provider: \(provider)") }
        let fcm = try await call(
            .POST,
            "/v1/push/providers",
            bearer: apiKey,
            ["providerId": "fcm-1", "kind": "fcm", "serviceAccount": Fixtures.serviceAccount()]
        )
        guard fcm.0 == 201 else { throw TestFailure("fcm provider: \(fcm)") }
        return apiKey
    }

    /// The users, in batches of 1,000, each with one session and an iPhone; their session tokens.
    /// - Parameter android: an Android phone (FCM) instead of an iPhone.
    /// - Parameter devices: register the phones (off: sessions only).
    func seed(apiKey: String, uids: [String], android: Bool = false, devices: Bool = true) async throws -> [String] {
        for start in stride(from: 0, to: uids.count, by: 1_000) {
            _ = try await call(
                .POST,
                "/v1/users/batch",
                bearer: apiKey,
                ["users": uids[start..<min(start + 1_000, uids.count)].map { ["uid": $0, "name": "User \($0)"] }]
            )
        }
        return try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
            for worker in 0..<32 {
                group.addTask {
                    var tokens: [(Int, String)] = []
                    for index in stride(from: worker, to: uids.count, by: 32) {
                        let (_, session) = try await call(.POST, "/v1/users/\(uids[index])/sessions", bearer: apiKey, [String: Any]())
                        let token = session["authToken"] as? String ?? ""
                        tokens.append((index, token))
                        guard devices else { continue }
                        _ = try await call(
                            .POST,
                            "/v1/me/push-tokens",
                            bearer: token,
                            android
                                ? ["pushToken": "fcm-bench-" + String(format: "%064x", index + 1), "platform": "fcm_android", "providerId": "fcm-1"]
                                : ["pushToken": String(format: "%064x", index + 1), "platform": "apns_ios_device", "providerId": "apns-1"]
                        )
                    }
                    return tokens
                }
            }
            var all = [String](repeating: "", count: uids.count)
            for try await part in group { for (index, token) in part { all[index] = token } }
            return all
        }
    }

    /// The same server started again on the same database and port (after it was stopped).
    func restarted() async throws -> BenchServer {
        let process = Process()
        process.executableURL = self.process.executableURL
        process.arguments = self.process.arguments
        process.environment = environment
        try process.run()
        let server = BenchServer(process: process, environment: environment, heraldPath: heraldPath, base: base, http: http)
        for _ in 0..<600 {
            if (try? await server.call(.GET, "/ready", bearer: nil, nil))?.0 == 200 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return server
    }

    /// Stops the server and removes its data folder and CA file (the database is the caller's).
    func stop() async throws {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try await http.shutdown()
        for path in [environment["HERALD_DATA_DIR"], environment["HERALD_CA_FILE"]].compactMap({ $0 }) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
