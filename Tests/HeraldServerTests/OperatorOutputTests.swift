import Foundation
import HeraldTestSupport
import Testing

/// What an operator reads: the CLI's answers and the server's log lines at the default level.
@Suite("Operator output")
struct OperatorOutputTests {
    @Test func theCLISaysWhatItHasAndFailsOnWhatItHasNot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-cli-out-\(UUID().uuidString)")
        let environment = ProcessInfo.processInfo.environment.merging([
            "HERALD_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("herald.sqlite").path, "HERALD_SECRET_KEY": String(repeating: "ab", count: 32),
        ]) { $1 }
        let herald = HeraldProcess.executable.path
        let version = try HeraldProcess.runCapturing(herald, ["--version"], environment: environment)
        #expect(version.status == 0 && version.output.hasPrefix("herald 0."), "\(version.output)")
        let empty = try HeraldProcess.runCapturing(herald, ["apps", "list"], environment: environment)
        #expect(empty.status == 0 && empty.output.contains("no apps yet"), "\(empty.output)")
        let unknown = try HeraldProcess.runCapturing(herald, ["apps", "keys", "--app", "app_nope"], environment: environment)
        #expect(unknown.status != 0 && unknown.output.contains("app_nope") && unknown.output.contains("not found"), "\(unknown.output)")
        let created = try HeraldProcess.runCapturing(herald, ["apps", "create", "--name", "Acme"], environment: environment)
        #expect(created.status == 0)
        let listed = try HeraldProcess.runCapturing(herald, ["apps", "list"], environment: environment)
        #expect(listed.output.contains("Acme") && !listed.output.contains("no apps yet"))
    }

    @Test func theDefaultLogSaysWhatMatters() async throws {
        let world = try await ProcessWorld.make(.sqlite, name: "Logs", extra: ["HERALD_LOG_LEVEL": "info"])
        defer { Task { await world.close() } }
        let process = try await HeraldProcess.start(environment: world.environment)
        try await world.addProviders(process)
        // Ana's phone token is dead: the push fails and the token is pruned.
        let dead = Fixtures.apnsToken()
        world.apns.script(deviceToken: dead, .init(status: 410, reason: "Unregistered", timestampMs: 1_700_000_000_000))
        #expect(try await world.call(process, .PUT, "/v1/users/ana", ["name": "Ana"]).status == 200)
        let session = try await world.call(process, .POST, "/v1/users/ana/sessions", [String: Any]())
        let token = try #require(session["authToken"] as? String)
        #expect(try await world.call(process, .POST, "/v1/me/push-tokens", bearer: token,
                                     ["pushToken": dead, "platform": "apns_ios_device", "providerId": "apns-1"]).status == 200)
        #expect(try await world.call(process, .POST, "/v1/events", EngineWorld.message(from: "bo", to: "ana")).status == 202)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, !process.logText.contains("push token pruned") { try await Task.sleep(for: .milliseconds(100)) }
        process.kill(SIGTERM)
        let stopped = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < stopped, process.process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        let lines = process.logText.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
        func line(_ message: String) -> [String: String]? { lines.first { $0["msg"] == message } }

        let listening = try #require(line("Herald is listening"), "\(process.logText.suffix(2_000))")
        #expect(listening["version"]?.hasPrefix("0.") == true && listening["database"] == "sqlite" && listening["address"]?.contains("\(process.port)") == true)
        let pruned = try #require(line("push token pruned"), "\(process.logText.suffix(2_000))")
        #expect(pruned["provider"] == "apns-1" && pruned["reason"] == "Unregistered" && pruned["app"] != nil)
        let failed = try #require(line("pushes failed"), "\(process.logText.suffix(2_000))")
        #expect(failed["provider"] == "apns-1" && failed["count"] == "1" && failed["reason"] == "token_invalid" && failed["outcome"] == "failed")
        #expect(!process.logText.contains(dead), "a whole device token reached the log")
        #expect(line("graceful shutdown: stopping the workers and closing connections") != nil, "\(process.logText.suffix(1_000))")
        #expect(line("Herald stopped") != nil, "\(process.logText.suffix(1_000))")
    }
}
