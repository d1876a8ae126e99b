import Foundation
import HeraldModels
import HeraldTestSupport
import Testing

/// Two `herald` processes on one PostgreSQL database: shared presence, envelopes across
/// processes through `LISTEN/NOTIFY`, and a killed process's users going offline.
@Suite("Several Herald processes on PostgreSQL", .enabled(if: TestBackend.postgresURL != nil))
struct MultiProcessTests {
    static func environment() async throws -> [String: String] {
        [
            "HERALD_DATABASE_URL": try await TestBackend.createPostgresDatabase(),
            "HERALD_SECRET_KEY": String(repeating: "ab", count: 32),
            "HERALD_LOG_LEVEL": "warning",
        ]
    }

    @Test func presenceAndEnvelopesCrossProcessesAndAKilledProcessGoesOffline() async throws {
        let environment = try await Self.environment()
        let created = try HeraldProcess.run(["apps", "create", "--name", "Multi", "--json"], environment: environment)
        let apiKey = try #require(try JSONValue(jsonText: created)["apiKey"].string)
        let first = try await HeraldProcess.start(environment: environment)
        let second = try await HeraldProcess.start(environment: environment)
        defer {
            first.kill()
            second.kill(SIGTERM)
        }
        let http = HTTPTestClient.shared
        #expect(try await http.request(.PUT, first.url + "/v1/users/ana", bearer: apiKey, json: ["name": "Ana"]).status == 200)
        #expect(try await http.request(.PATCH, second.url + "/v1/push/settings", bearer: apiKey, json: ["onlineGraceSeconds": 0]).status == 200)
        let session = try await http.request(.POST, first.url + "/v1/users/ana/sessions", bearer: apiKey, json: [String: Any]())
        let token = try #require(session["authToken"] as? String)

        let ws = try await RealtimeTestClient.connect(port: first.port, token: token)
        let presence = try await http.request(.GET, second.url + "/v1/users/ana/presence", bearer: apiKey)
        #expect(presence["online"] as? Bool == true, "\(presence.text)")

        // Sent through process 2, received on process 1's socket: inline, then by reference.
        let small = try await http.request(.POST, second.url + "/v1/realtime/messages", bearer: apiKey, json: ["uids": ["ana"], "data": ["n": 1]])
        #expect((small["reached"] as? [String])?.count == 1, "\(small.text)")
        #expect(try await ws.next() == .custom(.init(data: ["n": .number(1)])))
        let big = String(repeating: "é", count: 10_000)  // 20,000 bytes: over NOTIFY's 8,000
        #expect(
            try await http.request(.POST, second.url + "/v1/realtime/messages", bearer: apiKey, json: ["uids": ["ana"], "data": ["big": big]]).status
                == 200
        )
        #expect(try await ws.next() == .custom(.init(data: ["big": .string(big)])))

        // A logout on process 2 closes the socket on process 1.
        let other = try await http.request(.POST, first.url + "/v1/users/ana/sessions", bearer: apiKey, json: [String: Any]())
        let otherToken = try #require(other["authToken"] as? String)
        let ws2 = try await RealtimeTestClient.connect(port: first.port, token: otherToken)
        #expect(try await http.request(.DELETE, second.url + "/v1/me/session", bearer: otherToken).status == 204)
        #expect(try await ws2.next() == .sessionRevoked(reason: "logged out"))

        // SIGKILL process 1: process 2 sees Ana offline within 15 s.
        first.kill()
        let killed = ContinuousClock.now
        var offline = false
        while ContinuousClock.now - killed < .seconds(20), !offline {
            offline = try await http.request(.GET, second.url + "/v1/users/ana/presence", bearer: apiKey)["online"] as? Bool == false
            if !offline { try await Task.sleep(for: .milliseconds(250)) }
        }
        let took = ContinuousClock.now - killed
        #expect(offline)
        #expect(took < .seconds(15), "offline after \(took)")
    }
}
