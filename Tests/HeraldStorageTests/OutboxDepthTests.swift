import Foundation
import HeraldCore
import HeraldTestSupport
import SQLKit
import Testing

@testable import HeraldStorage

/// The outbox gauges (`herald_outbox_depth`, by app) count what is still to send every few
/// seconds: the pending and sending deliveries, never the log of those sent.
@Suite("Outbox depth")
struct OutboxDepthTests {
    typealias Fixture = RepositoryTests.Fixture

    @Test(arguments: TestBackend.available)
    func countsAnAppsPendingAndSendingDeliveriesOnly(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        let other = Fixture(store: f.store, appId: f.appId + "b")
        try await f.store.createApp(
            App(id: other.appId, name: "Other", region: "us", createdAt: Date()),
            firstKeyId: "key_" + other.appId,
            keyHash: "hash-" + other.appId
        )
        try await DeliveryUserIndexTests.commit(f, "evt_sent", ["ana", "bob", "cy"], at: 0, status: .delivered)
        try await DeliveryUserIndexTests.commit(f, "evt_due", ["ana", "bob"], at: 1, status: .pending)
        try await DeliveryUserIndexTests.commit(f, "evt_out", ["cy"], at: 2, status: .sending)
        try await DeliveryUserIndexTests.commit(f, "evt_failed", ["dan"], at: 3, status: .failed)
        try await DeliveryUserIndexTests.commit(other, "evt_other", ["eve"], at: 0, status: .pending)

        let depth = try await f.store.outboxDepthByApp()
        #expect(depth[f.appId] == 3)
        #expect(depth[other.appId] == 1)
    }

    /// SQLite, left to choose, read every delivery ever made through `deliveries_by_app` to group
    /// them in order: the count must come from the partial indexes of open deliveries alone.
    @Test
    func sqliteCountsThroughThePartialIndexesOfOpenDeliveries() async throws {
        let f = try await Fixture.make(.sqlite)
        try await DeliveryUserIndexTests.commit(f, "evt_sent", ["ana", "bob"], at: 0, status: .delivered)
        let plan = try await f.store.transaction { db in
            try await db.raw(SQLQueryString("EXPLAIN QUERY PLAN " + SQLStore.outboxDepthByAppSQL(.sqlite))).rows()
                .map { try $0.string("detail") }
        }
        let reads = plan.filter { $0.contains("deliveries") }
        #expect(reads.count == 2, "\(plan)")
        #expect(reads.allSatisfy { $0.contains("deliveries_due") || $0.contains("deliveries_leased") }, "\(plan)")
        #expect(!plan.contains { $0.contains("deliveries_by_app") }, "\(plan)")
    }
}
