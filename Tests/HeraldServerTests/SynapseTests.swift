import Foundation
import HeraldModels
import HeraldTestSupport
import Testing

/// A real homeserver pushing through Herald: `Tests/Synapse/synapse_test.py` starts Synapse
/// (`matrix-synapse` from PyPI, in the virtualenv `HERALD_SYNAPSE_PYTHON` names; `.ci/run` makes
/// it) on 127.0.0.1 with SQLite, registers Ana and Bo, gives Bo three pushers aimed at a `herald`
/// process — an iPhone (full format), an Android phone (`event_id_only`) and an iPhone whose
/// token APNs says is gone — and has Ana send Bo a message. The stand-ins must receive Sygnal's
/// payloads, and Synapse must drop the pusher Herald rejected.
///
/// Runs when the virtualenv is there, and always in CI (`CI=true`), where its absence fails.
@Suite("Synapse through the Matrix gateway")
struct SynapseTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var python: String? {
        ProcessInfo.processInfo.environment["HERALD_SYNAPSE_PYTHON"].flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    }
    static var shouldRun: Bool { ProcessInfo.processInfo.environment["CI"] == "true" || python != nil }

    @Test(
        .enabled(if: shouldRun, "needs HERALD_SYNAPSE_PYTHON: a virtualenv with matrix-synapse (made by .ci/run)"),
        arguments: TestBackend.available
    )
    func synapsesPushesArriveAsSygnalsAndARejectedPusherIsDropped(_ backend: TestBackend) async throws {
        let python = try #require(Self.python, "HERALD_SYNAPSE_PYTHON is not a python with matrix-synapse")
        let world = try await ProcessWorld.make(backend, name: "Synapse", record: true)
        defer { Task { await world.close() } }
        let process = try await HeraldProcess.start(environment: world.environment)
        defer { process.kill(SIGTERM) }
        try await world.addProviders(process)
        for (appId, provider) in [("im.vector.app.ios.*", "apns-1"), ("im.vector.app.android", "fcm-1")] {
            let bound = try await world.call(process, .PUT, "/v1/matrix/app-ids/\(appId)", ["providerId": provider])
            #expect(bound.status == 200, "\(bound.text)")
        }
        let iPhone = Data((0..<32).map { UInt8($0 * 3) })
        let dead = Data((0..<32).map { UInt8(200 - $0) })
        let hex = { (data: Data) in data.map { String(format: "%02x", $0) }.joined() }
        world.apns.script(deviceToken: hex(dead), .init(status: 410, reason: "Unregistered"))
        let android = Fixtures.fcmToken()
        let pushers: [[String: String]] = [
            ["app_id": "im.vector.app.ios.prod", "pushkey": iPhone.base64EncodedString()],
            ["app_id": "im.vector.app.android", "pushkey": android, "format": "event_id_only"],
            ["app_id": "im.vector.app.ios.prod", "pushkey": dead.base64EncodedString()],
        ]
        let work = TestScratch.path("herald-synapse")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var environment = ProcessInfo.processInfo.environment
        environment.merge([
            "HERALD_URL": process.url, "HERALD_API_KEY": world.apiKey, "WORK": work.path, "DEAD_PUSHKEY": dead.base64EncodedString(),
            "PUSHERS": String(decoding: try JSONSerialization.data(withJSONObject: pushers), as: UTF8.self),
        ]) { $1 }
        let script = Self.root.appendingPathComponent("Tests/Synapse/synapse_test.py").path
        let (status, output) = try HeraldProcess.runCapturing(python, [script], environment: environment, timeout: 300)
        #expect(status == 0, "the Synapse run failed:\n\(output.suffix(4_000))")
        guard status == 0, let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else { return }
        let result = JSONValue.parsing(Array(line.utf8))
        let eventId = try #require(result["event_id"].string)
        let roomId = try #require(result["room_id"].string)

        // Synapse dropped the pusher Herald rejected, and kept the others.
        #expect(result["pushers_left"].strings.map(Set.init) == [iPhone.base64EncodedString(), android], "\(line)")

        // The iPhone (full format): Sygnal's alert with the message, the badge, the ids.
        let toPhone = world.apns.received.filter { $0.path == "/3/device/\(hex(iPhone))" }.map { JSONValue.parsing($0.body) }
        let alert = try #require(toPhone.first { $0["event_id"].string == eventId }, "APNs got \(toPhone)")
        #expect(["MSG_FROM_USER_WITH_CONTENT", "MSG_FROM_USER_IN_ROOM_WITH_CONTENT"].contains(alert["aps"]["alert"]["loc-key"].string ?? ""))
        #expect(alert["aps"]["alert"]["loc-args"].strings?.last == "Hello from Synapse" && alert["room_id"].string == roomId)
        #expect(alert["aps"]["badge"].int == 1)

        // The Android phone (event_id_only): ids and the count, no content.
        let toAndroid = world.fcm.messages.map { JSONValue.parsing($0) }.filter { $0["token"].string == android }
        let data = try #require(toAndroid.first { $0["data"]["event_id"].string == eventId }?["data"], "FCM got \(toAndroid)")
        #expect(data["room_id"].string == roomId && data["unread"].string == "1" && data["content_body"] == .null)
    }
}
