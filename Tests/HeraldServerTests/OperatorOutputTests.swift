import Foundation
import HeraldTestSupport
import Testing

/// What an operator reads: the CLI's answers and the server's log lines at the default level.
@Suite("Operator output")
struct OperatorOutputTests {
    @Test func theCLISaysWhatItHasAndFailsOnWhatItHasNot() throws {
        let folder = TestScratch.path("herald-cli-out")
        let environment = ProcessInfo.processInfo.environment.merging([
            "HERALD_DATABASE_URL": "sqlite://" + folder.appendingPathComponent("herald.sqlite").path,
            "HERALD_SECRET_KEY": String(repeating: "ab", count: 32),
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
        #expect(
            try await world.call(
                process,
                .POST,
                "/v1/me/push-tokens",
                bearer: token,
                ["pushToken": dead, "platform": "apns_ios_device", "providerId": "apns-1"]
            ).status == 200
        )
        #expect(try await world.call(process, .POST, "/v1/events", EngineWorld.message(from: "bo", to: "ana")).status == 202)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, !process.logText.contains("push token pruned") { try await Task.sleep(for: .milliseconds(100)) }
        process.kill(SIGTERM)
        let stopped = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < stopped, process.process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        let lines = process.logText.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
        func line(_ message: String) -> [String: String]? { lines.first { $0["msg"] == message } }

        let listening = try #require(line("Herald is listening"), "\(process.logText.suffix(2_000))")
        #expect(
            listening["version"]?.hasPrefix("0.") == true && listening["database"] == "sqlite"
                && listening["address"]?.contains("\(process.port)") == true
        )
        let pruned = try #require(line("push token pruned"), "\(process.logText.suffix(2_000))")
        #expect(pruned["provider"] == "apns-1" && pruned["reason"] == "Unregistered" && pruned["app"] != nil)
        let failed = try #require(line("pushes failed"), "\(process.logText.suffix(2_000))")
        #expect(failed["provider"] == "apns-1" && failed["count"] == "1" && failed["reason"] == "token_invalid" && failed["outcome"] == "failed")
        #expect(!process.logText.contains(dead), "a whole device token reached the log")
        #expect(line("graceful shutdown: stopping the workers and closing connections") != nil, "\(process.logText.suffix(1_000))")
        #expect(line("Herald stopped") != nil, "\(process.logText.suffix(1_000))")
    }

    @Test func metricsHaveTheirOwnPortAndSayWhatAnOperatorWatches() async throws {
        let metricsPort = try HeraldProcess.freePort()
        let world = try await ProcessWorld.make(.sqlite, name: "Metrics", extra: ["HERALD_METRICS_PORT": String(metricsPort)])
        defer { Task { await world.close() } }
        let process = try await HeraldProcess.start(environment: world.environment)
        defer { process.kill(SIGTERM) }
        try await world.addProviders(process)
        let tokens = try await world.addUsers(process, count: 2)
        #expect(try await world.call(process, .POST, "/v1/events", EngineWorld.message(from: "u0001", to: "u0000")).status == 202)
        let session = try await world.call(process, .POST, "/v1/users/u0001/sessions", [String: Any]())
        let socket = try await RealtimeTestClient.connect(port: process.port, token: try #require(session["authToken"] as? String))
        _ = socket
        // The API's port no longer serves them.
        #expect(try await world.call(process, .GET, "/metrics").status == 404)
        var text = ""
        let deadline = ContinuousClock.now + .seconds(20)
        repeat {
            try await Task.sleep(for: .milliseconds(300))
            text = (try? await HTTPTestClient.shared.request(.GET, "http://127.0.0.1:\(metricsPort)/metrics"))?.text ?? ""
        } while ContinuousClock.now < deadline
            && !(text.contains("herald_provider_request_seconds_bucket") && text.contains("herald_websockets_open 1")
                && text.contains("herald_outbox_depth_by_app") && text.contains("herald_decisions_total{")
                && text.contains("herald_push_attempts_total{"))
        #expect(text.contains(#"herald_provider_request_seconds_bucket{provider="apns""#), "no provider latency histogram:\n\(text.prefix(3_000))")
        #expect(text.contains("herald_websockets_open 1"), "open WebSockets not counted")
        #expect(text.contains("herald_outbox_depth_by_app{app="), "no outbox depth per app")
        // Counted per batch, reported once per kind: the one recipient, the one push.
        #expect(text.contains(#"herald_decisions_total{decision="push",event_type="message"} 1"#), "\(text.prefix(3_000))")
        #expect(text.contains(#"herald_push_attempts_total{provider="apns",outcome="delivered",reason="none"} 1"#), "\(text.prefix(3_000))")
        _ = tokens
    }

    @Test func certificateExpiryIsAGaugeOfSecondsLeft() async throws {
        let metricsPort = try HeraldProcess.freePort()
        let world = try await ProcessWorld.make(.sqlite, name: "Expiry", extra: ["HERALD_METRICS_PORT": String(metricsPort)])
        defer { Task { await world.close() } }
        let first = try await HeraldProcess.start(environment: world.environment)
        let created = try await world.call(
            first,
            .POST,
            "/v1/push/providers",
            [
                "providerId": "apns-cert", "kind": "apns", "auth": "certificate", "bundleId": "com.acme.app",
                "p12": try Fixtures.p12("apns-valid"), "password": Fixtures.p12Password,
            ]
        )
        #expect(created.status == 201, "\(created.text)")
        first.kill(SIGTERM)
        while first.process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        // Measured when the server starts, then every minute.
        let second = try await HeraldProcess.start(environment: world.environment)
        defer { second.kill(SIGTERM) }
        var line: Substring?
        let deadline = ContinuousClock.now + .seconds(15)
        while line == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(300))
            let text = (try? await HTTPTestClient.shared.request(.GET, "http://127.0.0.1:\(metricsPort)/metrics"))?.text ?? ""
            line = text.split(separator: "\n").first {
                $0.hasPrefix("herald_apns_certificate_expiry_seconds{") && $0.contains(#"provider="apns-cert""#)
            }
        }
        let seconds = try #require(line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }, "no certificate expiry gauge")
        #expect(seconds > 86_400, "the test certificate is valid for longer than a day: \(seconds)")
    }

    @Test func oneTracePerEventFromTheAPIThroughFanOutToTheProvider() async throws {
        let receiver = try await OTLPReceiver.start()
        defer { receiver.shutdown() }
        let world = try await ProcessWorld.make(
            .sqlite,
            name: "Traces",
            extra: [
                "HERALD_OTEL_ENDPOINT": receiver.endpoint, "HERALD_OTEL_PROTOCOL": "http/json", "OTEL_BSP_SCHEDULE_DELAY": "200",
            ]
        )
        defer { Task { await world.close() } }
        let process = try await HeraldProcess.start(environment: world.environment)
        defer { process.kill(SIGTERM) }
        try await world.addProviders(process)
        let tokens = try await world.addUsers(process, count: 2)
        let posted = try await world.call(process, .POST, "/v1/events", EngineWorld.message(from: "u0001", to: "u0000"))
        let eventId = try #require((posted["eventIds"] as? [String])?.first)

        var fanOut: OTLPReceiver.Span?
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            fanOut = receiver.spans.first { $0.name == "herald.fanout" && $0.attributes["herald.event.id"] == eventId }
            if let fanOut, receiver.spans.contains(where: { $0.name == "herald.send" && $0.parentSpanId == fanOut.spanId }) { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        let spans = receiver.spans
        let fan = try #require(fanOut, "no fan-out span: \(spans.map(\.name))")
        // The request's span is the parent of the event's fan-out: one trace.
        let request = try #require(spans.first { $0.spanId == fan.parentSpanId }, "the fan-out's parent is not among \(spans.map(\.name))")
        #expect(request.name == "/v1/events" && request.traceId == fan.traceId)
        #expect(
            fan.attributes["herald.event.type"] == "message" && fan.attributes["herald.recipients"] == "1" && fan.attributes["herald.app"] != nil,
            "\(fan.attributes)"
        )
        let decide = spans.first { $0.name == "herald.decide" && $0.parentSpanId == fan.spanId }
        #expect(decide?.attributes["herald.decisions.push"] == "1", "\(String(describing: decide?.attributes))")
        let send = try #require(spans.first { $0.name == "herald.send" && $0.parentSpanId == fan.spanId })
        #expect(
            send.traceId == fan.traceId && send.attributes["herald.provider"] == "apns" && send.attributes["herald.outcome"] == "delivered",
            "\(send.attributes)"
        )
        // Never a token or a secret.
        let everything = spans.flatMap { $0.attributes.values }.joined(separator: " ")
        #expect(tokens.values.allSatisfy { !everything.contains($0) } && !everything.contains(world.apiKey))
    }
}
