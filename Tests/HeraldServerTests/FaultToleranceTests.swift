import Foundation
import HeraldModels
import HeraldTestSupport
import NIOCore
import Testing

/// Providers at their worst: APNs and FCM refuse 30 % of pushes with 503 or 429 and a
/// Retry-After (one device at most three times in a row), send GOAWAY every few requests and answer half a second late; the webhook hangs
/// on its first calls. Every push and webhook still arrives, no push is retried before the wait
/// it was given, and Herald's CPU stays low while it waits.
/// Reduced size in CI; `HERALD_SUITE_SCALE=full` for the documented full run.
@Suite("Fault tolerance")
struct FaultToleranceTests {
    @Test(arguments: TestBackend.available)
    func everythingArrivesThroughRefusalsGoAwaysLatencyAndAHangingWebhook(_ backend: TestBackend) async throws {
        let users = ProcessWorld.fullSize ? 2_000 : 160
        let world = try await ProcessWorld.make(backend, name: "Faults")
        defer { Task { await world.close() } }
        let settings = FaultPlan.Settings(
            refusalRate: 0.3,
            retryAfterSeconds: 3,
            goAwayEvery: ProcessWorld.fullSize ? 97 : 23,
            latency: .milliseconds(500)
        )
        let apnsFaults = FaultPlan(settings)
        let fcmFaults = FaultPlan(settings)
        let process = try await HeraldProcess.start(environment: world.environment)
        defer { process.kill(SIGTERM) }
        try await world.addProviders(process, webhook: true)
        let tokens = try await world.addUsers(process, count: users)
        #expect(try await world.call(process, .PUT, "/v1/users/sender", ["name": "Sender"]).status == 200)
        world.apns.inject(apnsFaults)
        world.fcm.inject(fcmFaults)
        // The webhook hangs (past Herald's 2-second limit) on its first calls.
        let hangs = ProcessWorld.fullSize ? 50 : 8
        world.hook.script(Array(repeating: StandInResponse(status: 200, json: "{}", delay: .seconds(30)), count: hangs))

        // One direct message to each user, in batches.
        let uids = tokens.keys.sorted()
        let started = ContinuousClock.now
        let cpuBefore = process.cpuSeconds
        for start in stride(from: 0, to: uids.count, by: 100) {
            let events = uids[start..<min(start + 100, uids.count)].enumerated().map { offset, uid in
                [
                    "type": "message",
                    "message": ["id": start + offset + 1, "text": "Hi", "sender": "sender", "receiver": uid, "receiverType": "user"],
                ] as [String: Any]
            }
            let posted = try await world.call(process, .POST, "/v1/events", ["events": events])
            #expect(posted.status == 202, "\(posted.text)")
        }

        // Everything arrives: each device's push is accepted, each user's webhook answered.
        func webhookUids() -> Set<String> {
            Set(world.hook.envelopes.compactMap { $0["data"]["to"]["uid"].string })
        }
        func delivered() -> Int {
            let accepted = apnsFaults.accepted.merging(fcmFaults.accepted) { $0 + $1 }
            return tokens.values.filter { (accepted[$0] ?? 0) > 0 }.count
        }
        let deadline = ContinuousClock.now + .seconds(ProcessWorld.fullSize ? 900 : 300)
        // CPU from five seconds in (past the intake of the events) to the end: retries that wait
        // sleep; a hot loop would use a whole core.
        try await Task.sleep(for: .seconds(5))
        let waitStart = (ContinuousClock.now, process.cpuSeconds)
        while delivered() < tokens.count || webhookUids().count < uids.count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(500))
        }
        let waited = ContinuousClock.now - waitStart.0
        let waitCPU = (process.cpuSeconds - waitStart.1) / max(0.5, Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18)
        let elapsed = ContinuousClock.now - started
        let cpuUsed = process.cpuSeconds - cpuBefore
        #expect(delivered() == tokens.count, "\(tokens.count - delivered()) of \(tokens.count) pushes never arrived")
        #expect(webhookUids().count == uids.count, "\(uids.count - webhookUids().count) webhooks never arrived")
        #expect(world.hook.requests.count > uids.count, "the hanging webhook calls were not retried")

        // Backoff: no push came back before the Retry-After it was given.
        #expect(apnsFaults.violations.isEmpty, "APNs retried early: \(apnsFaults.violations.prefix(5))")
        #expect(fcmFaults.violations.isEmpty, "FCM retried early: \(fcmFaults.violations.prefix(5))")
        #expect(apnsFaults.refusals > 0 && fcmFaults.refusals > 0, "no faults were injected: nothing was tested")
        // No hot loop: the waits are slept, not spun.
        #expect(waitCPU < 0.3, "Herald used \(Int(waitCPU * 100)) % of a core while waiting to retry")
        let accepted = apnsFaults.accepted.merging(fcmFaults.accepted) { $0 + $1 }
        let duplicates = accepted.values.reduce(0) { $0 + max(0, $1 - 1) }
        // A GOAWAY can end a stream whose push was accepted before its answer arrived; only those repeat.
        #expect(duplicates <= (apnsFaults.requests + fcmFaults.requests) / settings.goAwayEvery! * 100)

        // The delivery log agrees: nothing failed, nothing left.
        let failed = try await world.call(process, .GET, "/v1/deliveries?status=failed&limit=10")
        #expect((failed["data"] as? [Any])?.isEmpty == true, "\(failed.text.prefix(600))")
        // The last answers may still be on their way into the log.
        var pending = try await world.call(process, .GET, "/v1/deliveries?status=pending&limit=10")
        let settled = ContinuousClock.now + .seconds(60)
        while (pending["data"] as? [Any])?.isEmpty == false, ContinuousClock.now < settled {
            try await Task.sleep(for: .milliseconds(500))
            pending = try await world.call(process, .GET, "/v1/deliveries?status=pending&limit=10")
        }
        #expect((pending["data"] as? [Any])?.isEmpty == true, "\(pending.text.prefix(600))")
        print(
            """
            fault suite (\(backend.rawValue), \(users) users): all \(tokens.count) pushes and \(uids.count) webhooks arrived in \
            \(elapsed.components.seconds) s; APNs \(apnsFaults.requests) requests, \(apnsFaults.refusals) refused; FCM \(fcmFaults.requests) requests, \
            \(fcmFaults.refusals) refused; webhook \(world.hook.requests.count) calls (\(hangs) hung); \(duplicates) pushes accepted twice; \
            Herald CPU \(String(format: "%.1f", cpuUsed)) s, \(Int(waitCPU * 100)) % of a core while retries waited
            """
        )
    }
}
