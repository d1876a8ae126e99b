import Foundation
import HTTPTypes
import HeraldModels
import HeraldTestSupport
import Testing

/// The WebSocket channel (`GET /v1/me/ws`) and presence, on a live server.
@Suite("Real-time channel")
struct RealtimeTests {
    /// Polls `condition` until it holds or `timeout` passes.
    static func eventually(_ timeout: Duration = .seconds(5), _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    static func presence(_ client: HeraldClient, _ uid: String, _ key: String) async throws -> (online: Bool, sessions: [[String: Any]]) {
        let response = try await client.request(.get, "/v1/users/\(uid)/presence", bearer: key)
        guard response.status == 200 else { throw TestFailure("presence: \(response.status) \(response.text)") }
        return (response["online"] as? Bool ?? false, response["sessions"] as? [[String: Any]] ?? [])
    }

    @Test(arguments: TestBackend.available)
    func connectingAndLeavingChangePresence(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.runLive { client, port in
            let phone = try await client.login("ana", apiKey: app.apiKey)
            let laptop = try await client.login("ana", apiKey: app.apiKey)
            try await client.request(.patch, "/v1/push/settings", bearer: app.apiKey, json: ["onlineGraceSeconds": 0])
            #expect(try await Self.presence(client, "ana", app.apiKey).online == false)

            let first = try await RealtimeTestClient.connect(port: port, token: phone)
            let second = try await RealtimeTestClient.connect(port: port, token: laptop)
            let now = try await Self.presence(client, "ana", app.apiKey)
            #expect(now.online && now.sessions.count == 2)
            #expect(now.sessions.allSatisfy { $0["connected"] as? Bool == true && ($0["instance"] as? String)?.hasPrefix("h") == true })

            first.close()
            #expect(try await Self.eventually { try await Self.presence(client, "ana", app.apiKey).sessions.count == 1 })
            // With a grace period, a dropped session stays online (not connected) for that long.
            try await client.request(.patch, "/v1/push/settings", bearer: app.apiKey, json: ["onlineGraceSeconds": 2])
            second.close()
            #expect(try await second.waitClosed(timeout: .seconds(5)))
            try await Task.sleep(for: .milliseconds(300))
            let grace = try await Self.presence(client, "ana", app.apiKey)
            #expect(grace.online && grace.sessions.first?["connected"] as? Bool == false && grace.sessions.first?["offlineAt"] != nil)
            #expect(try await Self.eventually { try await Self.presence(client, "ana", app.apiKey).online == false })
            #expect(try await client.request(.get, "/v1/users/nobody/presence", bearer: app.apiKey).status == 404)
        }
    }

    @Test(arguments: TestBackend.available)
    func pingsKeepASocketAndSilenceDropsIt(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend, pingInterval: .seconds(1))
        let app = try await herald.makeApp()
        try await herald.runLive { client, port in
            try await client.request(.patch, "/v1/push/settings", bearer: app.apiKey, json: ["onlineGraceSeconds": 0])
            let ws = try await RealtimeTestClient.connect(port: port, token: try await client.login("ana", apiKey: app.apiKey))
            ws.send(#"{"type":"ping","id":"p-1"}"#)
            #expect(try await ws.next() == .pong(id: "p-1"))
            ws.send("not json")
            guard case .error(let code, _) = try await ws.next() else {
                Issue.record("no error envelope")
                return
            }
            #expect(code == "bad_message")

            let silent = try await SilentWebSocket.connect(port: port, token: try await client.login("bo", apiKey: app.apiKey))
            #expect(try await Self.presence(client, "bo", app.apiKey).online)
            // Pinged every second and never answering, the silent socket is closed within two periods.
            #expect(try await Self.eventually(.seconds(6)) { silent.isClosed })
            #expect(try await Self.eventually { try await Self.presence(client, "bo", app.apiKey).online == false })
            // The socket that answers pings is still there.
            #expect(!ws.isClosed)
            #expect(try await Self.presence(client, "ana", app.apiKey).online)
            ws.close()
        }
    }

    @Test(arguments: TestBackend.available)
    func badAndRevokedCredentialsAreRefused(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let app = try await herald.makeApp()
        try await herald.runLive { client, port in
            await #expect(throws: (any Error).self) { try await RealtimeTestClient.connect(port: port, token: "hs_not-a-token") }
            await #expect(throws: (any Error).self) { try await RealtimeTestClient.connect(port: port, token: app.apiKey) }
            // Without an upgrade the path answers like any route: who you are, then what is wrong.
            #expect(try await client.request(.get, "/v1/me/ws", bearer: "hs_nope").status == 401)
            let token = try await client.login("ana", apiKey: app.apiKey)
            let plain = try await client.request(.get, "/v1/me/ws", bearer: token)
            #expect(plain.status == 426 && plain.errorCode == "upgrade_required")

            // Logging out closes the session's socket after telling it why.
            let ws = try await RealtimeTestClient.connect(port: port, token: token, viaQuery: true)
            #expect(try await client.request(.delete, "/v1/me/session", bearer: token).status == 204)
            #expect(try await ws.next() == .sessionRevoked(reason: "logged out"))
            #expect(try await ws.waitClosed(timeout: .seconds(5)))
            #expect(ws.closeCode == 4001)
            await #expect(throws: (any Error).self) { try await RealtimeTestClient.connect(port: port, token: token) }
            // An upgrade with a bad or revoked token is a 401 with the error body, not a bare 400:
            // a client can tell "log in again" from a bug.
            // (An upgrade is the first request of its connection, as a WebSocket client makes it: curl here.)
            for (bearer, query) in [("hs_not-a-token", ""), (token, ""), (nil, "?authToken=\(token)")] {
                var arguments = [
                    "-si", "--max-time", "10", "http://127.0.0.1:\(port)/v1/me/ws" + query, "-H", "Upgrade: websocket", "-H", "Connection: Upgrade",
                    "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "-H", "Sec-WebSocket-Version: 13",
                ]
                if let bearer { arguments += ["-H", "Authorization: Bearer \(bearer)"] }
                let refused = try HeraldProcess.runCapturing("/usr/bin/curl", arguments).output
                #expect(refused.hasPrefix("HTTP/1.1 401"), "\(refused)")
                #expect(refused.contains(#""code":"unauthorized""#) && refused.lowercased().contains("www-authenticate: bearer"), "\(refused)")
            }

            // So does an admin revoking the session.
            let other = try await client.login("ana", apiKey: app.apiKey)
            let ws2 = try await RealtimeTestClient.connect(port: port, token: other)
            let me = try await client.request(.get, "/v1/me", bearer: other)
            let sessionId = try #require(me["sessionId"] as? String)
            #expect(try await client.request(.delete, "/v1/users/ana/sessions/\(sessionId)", bearer: app.apiKey).status == 204)
            #expect(try await ws2.next() == .sessionRevoked(reason: "session revoked"))
            #expect(try await ws2.waitClosed(timeout: .seconds(5)))
        }
    }

    @Test(arguments: TestBackend.available)
    func anAppsEnvelopesNeverReachAnotherApp(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        let appA = try await herald.makeApp(name: "A")
        let appB = try await herald.makeApp(name: "B")
        try await herald.runLive { client, port in
            let wsA = try await RealtimeTestClient.connect(port: port, token: try await client.login("ana", apiKey: appA.apiKey))
            let wsB = try await RealtimeTestClient.connect(port: port, token: try await client.login("ana", apiKey: appB.apiKey))
            let sent = try await client.request(
                .post,
                "/v1/realtime/messages",
                bearer: appB.apiKey,
                json: ["uids": ["ana"], "data": ["text": "for B"]]
            )
            #expect(sent.status == 200, "\(sent.text)")
            let reached = try #require(sent["reached"] as? [String])
            #expect(reached.count == 1)
            #expect(try await wsB.next() == .custom(.init(data: ["text": .string("for B")])))

            // App A, naming B's session by id, reaches nothing.
            let stolen = try await client.request(
                .post,
                "/v1/realtime/messages",
                bearer: appA.apiKey,
                json: ["sessionIds": reached, "data": ["text": "from A"]]
            )
            #expect(stolen["reached"] as? [String] == [])
            try await Task.sleep(for: .milliseconds(300))
            #expect(wsA.pending.isEmpty)
            #expect(wsB.pending.isEmpty)
            #expect(try await client.request(.get, "/v1/users/ana/presence", bearer: appA.apiKey)["online"] as? Bool == true)
            #expect(try await client.request(.post, "/v1/realtime/messages", bearer: appA.apiKey, json: ["data": ["x": 1]]).status == 422)
            wsA.close()
            wsB.close()
        }
    }

    @Test func aSessionsSocketClosesWhenItExpires() async throws {
        let herald = try await TestHerald.make(.sqlite)
        let app = try await herald.makeApp()
        try await herald.runLive { client, port in
            try await client.request(.put, "/v1/users/ana", bearer: app.apiKey, json: ["name": "Ana"])
            // Long enough for a loaded machine to connect first.
            let expires = ISO8601DateFormatter().string(from: Date().addingTimeInterval(10))
            let session = try await client.request(.post, "/v1/users/ana/sessions", bearer: app.apiKey, json: ["expiresAt": expires])
            let ws = try await RealtimeTestClient.connect(port: port, token: try #require(session["authToken"] as? String))
            let last = try await ws.next(timeout: .seconds(20))
            #expect(last == .sessionRevoked(reason: "session expired"), "\(String(describing: last)) closed: \(ws.isClosed)")
            #expect(try await ws.waitClosed(timeout: .seconds(5)))
        }
    }
}
