import Crypto
import Foundation
import HeraldTestSupport
import NIOConcurrencyHelpers

/// `herald-bench feed`: campaigns and the in-app feed against a release `herald serve`.
///
///   herald-bench feed --herald <path> --database <url> [--users 100000] [--items 1000000] [--samples 2000] [--json <file>]
///
/// Scenarios: one campaign with a push to every user (time until its items are written, and
/// until the last push reached the APNs stand-in); more campaigns until the store holds `items`
/// items; then p50/p99 of `GET /v1/me/feed` (plain and filtered) and of the unread count, for
/// random users, one request at a time.
enum FeedBench {
    struct Results: Encodable {
        var backend: String
        var users: Int
        var campaignItemsSeconds = 0.0
        var campaignPushesSeconds = 0.0
        var campaignPushes = 0
        var itemsInStore = 0
        var fillSeconds = 0.0
        var samples = 0
        var feedP50Milliseconds = 0.0
        var feedP99Milliseconds = 0.0
        var filteredFeedP50Milliseconds = 0.0
        var filteredFeedP99Milliseconds = 0.0
        var unreadP50Milliseconds = 0.0
        var unreadP99Milliseconds = 0.0
        var unreadByCategoryP50Milliseconds = 0.0
        var unreadByCategoryP99Milliseconds = 0.0
        var serverPeakRSSMiB = 0.0
    }

    static var card: [String: Any] {
        [
            "version": "1.0", "fallbackText": "Spring sale",
            "body": [
                ["type": "text", "id": "title", "content": "Hello {{user.name}}", "variant": "heading2"],
                ["type": "button", "id": "open", "label": "Shop", "action": ["type": "openUrl", "url": "https://example.com/sale"]],
            ],
        ]
    }

    static func run() async throws {
        let heraldPath = argument("--herald")!
        let database = argument("--database")!
        let userCount = Int(argument("--users", "100000")!)!
        let itemTarget = Int(argument("--items", "1000000")!)!
        let sampleCount = Int(argument("--samples", "2000")!)!
        var results = Results(backend: database.hasPrefix("postgres") ? "postgres" : "sqlite", users: userCount)

        let standIn = try await APNsStandIn.start(recordRequests: false, lean: true)
        let key = P256.Signing.PrivateKey()
        standIn.trust(keyId: "BENCH12345", publicKey: key.publicKey)
        let received = NIOLockedValueBox(0)
        standIn.observe { _ in received.withLockedValue { $0 += 1 } }

        let bench = try await BenchServer.start(heraldPath: heraldPath, database: database, standIn: standIn, name: "feed")
        let apiKey = try await bench.makeApp(key: key)
        let uids = (0..<userCount).map { String(format: "u%06d", $0) }
        let seeded = ContinuousClock.now
        let sessions = try await bench.seed(apiKey: apiKey, uids: uids)
        _ = try await bench.call(.POST, "/v1/feed/categories", bearer: apiKey, ["id": "promo", "label": "Promotions"])
        print(
            String(
                format: "seeded %d users with a session and an iPhone each in %.0f s (%@)",
                userCount,
                EngineBench.seconds(since: seeded),
                results.backend as NSString
            )
        )

        /// Creates and sends a campaign to everyone; returns when all its items are written.
        func campaign(_ name: String, push: Bool, categoryId: String?) async throws {
            var body: [String: Any] = ["name": name, "audience": ["type": "all"], "card": card]
            if push { body["push"] = ["title": "Hi {{user.name}}", "body": "Spring sale: 20% off"] }
            if let categoryId { body["categoryId"] = categoryId }
            let (status, created) = try await bench.call(.POST, "/v1/campaigns", bearer: apiKey, body)
            guard status == 201, let id = created["id"] as? String else { throw TestFailure("campaign: \(status) \(created)") }
            _ = try await bench.call(.POST, "/v1/campaigns/\(id)/send", bearer: apiKey, nil)
            while true {
                let (_, state) = try await bench.call(.GET, "/v1/campaigns/\(id)", bearer: apiKey, nil)
                if state["status"] as? String == "sent" { return }
                guard state["status"] as? String != "cancelled" else { throw TestFailure("campaign cancelled: \(state)") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        // 1. A campaign with a push to every user.
        let started = ContinuousClock.now
        try await campaign("Spring", push: true, categoryId: "promo")
        results.campaignItemsSeconds = EngineBench.seconds(since: started)
        let deadline = ContinuousClock.now + .seconds(900)
        while received.withLockedValue({ $0 }) < userCount, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        results.campaignPushesSeconds = EngineBench.seconds(since: started)
        results.campaignPushes = received.withLockedValue { $0 }
        print(
            String(
                format: "campaign to %d users: items written in %.1f s (%.0f items/s); %d pushes at APNs after %.1f s (%.0f pushes/s)",
                userCount,
                results.campaignItemsSeconds,
                Double(userCount) / results.campaignItemsSeconds,
                results.campaignPushes,
                results.campaignPushesSeconds,
                Double(results.campaignPushes) / results.campaignPushesSeconds
            )
        )

        // 2. More campaigns (no push) until the store holds the target.
        let filling = ContinuousClock.now
        var items = userCount
        var round = 0
        while items + userCount <= itemTarget {
            round += 1
            try await campaign("Fill \(round)", push: false, categoryId: round % 2 == 0 ? "promo" : nil)
            items += userCount
        }
        results.itemsInStore = items
        results.fillSeconds = EngineBench.seconds(since: filling)
        print(
            String(
                format: "%d more campaigns: %d items in the store after %.0f s (%.0f items/s)",
                round,
                items,
                results.fillSeconds,
                Double(items - userCount) / max(0.001, results.fillSeconds)
            )
        )

        // 3. Reads, one at a time, for random users.
        func percentiles(_ path: String) async throws -> (Double, Double) {
            var latencies: [Double] = []
            for _ in 0..<sampleCount {
                let token = sessions[Int.random(in: 0..<sessions.count)]
                let start = ContinuousClock.now
                let (status, _) = try await bench.call(.GET, path, bearer: token, nil)
                latencies.append(EngineBench.ms(ContinuousClock.now - start))
                guard status == 200 else { throw TestFailure("\(path): \(status)") }
            }
            latencies.sort()
            return (latencies[latencies.count / 2], latencies[min(latencies.count - 1, latencies.count * 99 / 100)])
        }
        results.samples = sampleCount
        (results.feedP50Milliseconds, results.feedP99Milliseconds) = try await percentiles("/v1/me/feed?limit=20")
        (results.filteredFeedP50Milliseconds, results.filteredFeedP99Milliseconds) = try await percentiles(
            "/v1/me/feed?limit=20&categoryId=promo&readState=unread"
        )
        (results.unreadP50Milliseconds, results.unreadP99Milliseconds) = try await percentiles("/v1/me/feed/unread-count")
        (results.unreadByCategoryP50Milliseconds, results.unreadByCategoryP99Milliseconds) = try await percentiles(
            "/v1/me/feed/unread-count?categoryId=promo"
        )
        results.serverPeakRSSMiB = EngineBench.peakRSS(of: bench.process.processIdentifier)
        print(
            String(
                format:
                    "with %d items: GET /v1/me/feed p50 %.2f ms p99 %.2f ms; filtered (category, unread) p50 %.2f ms p99 %.2f ms; unread count p50 %.2f ms p99 %.2f ms; by category p50 %.2f ms p99 %.2f ms (%d samples each); server peak RSS %.0f MiB",
                items,
                results.feedP50Milliseconds,
                results.feedP99Milliseconds,
                results.filteredFeedP50Milliseconds,
                results.filteredFeedP99Milliseconds,
                results.unreadP50Milliseconds,
                results.unreadP99Milliseconds,
                results.unreadByCategoryP50Milliseconds,
                results.unreadByCategoryP99Milliseconds,
                sampleCount,
                results.serverPeakRSSMiB
            )
        )

        if let file = argument("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(results).write(to: URL(fileURLWithPath: file))
        }
        await standIn.shutdown()
        try await bench.stop()
    }
}
