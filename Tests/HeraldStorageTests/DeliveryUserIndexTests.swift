import Foundation
import HeraldCore
import HeraldModels
import HeraldTestSupport
import SQLKit
import Testing

@testable import HeraldStorage

/// A user's delivery log (`GET /v1/deliveries?uid=`): on SQLite new deliveries are copied into
/// `delivery_users` in sorted batches, and read from `deliveries` until they are; on PostgreSQL
/// an index serves it. Either way a lookup finds every delivery stored before it, newest first,
/// once each.
@Suite("Deliveries by user")
struct DeliveryUserIndexTests {
    typealias Fixture = RepositoryTests.Fixture

    /// Commits one finished fan-out step of `eventId` with a delivery to each of `uids`, made
    /// `offset` seconds after the fixture's time (the second and later of a uid: other devices).
    static func commit(_ f: Fixture, _ eventId: String, _ uids: [String], at offset: Double, status: DeliveryStatus = .delivered) async throws {
        _ = try await f.groupMessage(eventId, claimedUntil: f.now.addingTimeInterval(60))
        var devices: [String: Int] = [:]
        let deliveries = uids.map { uid in
            devices[uid, default: 0] += 1
            return Delivery(
                appId: f.appId,
                subject: .event(eventId),
                uid: uid,
                target: .token("token-\(uid)-\(devices[uid]!)"),
                providerId: "fcm-1",
                platform: .fcmAndroid,
                route: .alert,
                status: status,
                createdAt: f.now.addingTimeInterval(offset)
            )
        }
        let step = FanOutStep(appId: f.appId, eventId: eventId, deliveries: deliveries, done: true, recipients: uids.count, leaseUntil: f.now)
        #expect(try await f.store.commitFanOut([step], at: f.now) == [eventId])
    }

    /// Every page of a user's log, read `limit` at a time.
    static func pages(_ f: Fixture, _ filter: DeliveryFilter, limit: Int) async throws -> [[Delivery]] {
        var pages: [[Delivery]] = []
        var cursor: String?
        while true {
            let page = try await f.store.deliveries(appId: f.appId, filter: filter, after: cursor, limit: limit)
            if page.isEmpty { return pages }
            pages.append(page)
            cursor = SQLStore.deliveryCursor(after: page.last!)
        }
    }

    /// The newest row of `deliveries` whose entry is in the table, as recorded.
    static func through(_ store: SQLStore) async throws -> Int {
        try await store.transaction { db in try await db.raw("SELECT through FROM delivery_users_indexed").firstRow()?.int("through") ?? -1 }
    }

    /// Copies the new deliveries into `delivery_users` now (SQLite).
    static func flush(_ f: Fixture) async throws {
        guard f.store.dialect == .sqlite else { return }
        while try await DeliveryUserIndex.copy(f.store.source) {}
        #expect(try await through(f.store) == f.store.transaction { db in try await DeliveryUserIndex.newestRow(db) })
    }

    @Test(arguments: TestBackend.available)
    func aUsersDeliveriesAreFoundNewestFirstWhetherIndexedYetOrNot(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        try await Self.commit(f, "evt_a", ["ana", "bob"], at: 0)
        try await Self.flush(f)
        try await Self.commit(f, "evt_b", ["ana", "ana", "cy"], at: 10)
        try await Self.commit(f, "evt_c", ["ana"], at: 20, status: .failed)
        // evt_a's entry is in the table, evt_b's and evt_c's not yet (on SQLite): one log.
        for round in ["half indexed", "indexed"] {
            let pages = try await Self.pages(f, DeliveryFilter(uid: "ana"), limit: 2)
            #expect(pages.map(\.count) == [2, 2], "\(round)")
            let log = pages.flatMap { $0 }
            #expect(log.map(\.subject.id) == ["evt_c", "evt_b", "evt_b", "evt_a"], "\(round)")
            #expect(Set(log.map(\.id)).count == 4, "\(round)")
            #expect(log.allSatisfy { $0.uid == "ana" && $0.appId == f.appId }, "\(round)")
            let failed = try await f.store.deliveries(appId: f.appId, filter: DeliveryFilter(uid: "ana", status: .failed), after: nil, limit: 10)
            #expect(failed.map(\.subject.id) == ["evt_c"], "\(round)")
            let recent = try await f.store.deliveries(
                appId: f.appId,
                filter: DeliveryFilter(uid: "ana", since: f.now.addingTimeInterval(10)),
                after: nil,
                limit: 10
            )
            #expect(recent.map(\.subject.id) == ["evt_c", "evt_b", "evt_b"], "\(round)")
            let ofEvent = try await f.store.deliveries(appId: f.appId, filter: DeliveryFilter(uid: "ana", eventId: "evt_a"), after: nil, limit: 10)
            #expect(ofEvent.map(\.subject.id) == ["evt_a"], "\(round)")
            #expect(
                try await f.store.deliveries(appId: f.appId, filter: DeliveryFilter(uid: "bob"), after: nil, limit: 10).map(\.subject.id) == ["evt_a"]
            )
            #expect(try await f.store.deliveries(appId: f.appId, filter: DeliveryFilter(uid: "nobody"), after: nil, limit: 10).isEmpty)
            // The whole app's log, paged the same way.
            let all = try await Self.pages(f, DeliveryFilter(), limit: 4).flatMap { $0 }
            #expect(all.map(\.subject.id) == ["evt_c", "evt_b", "evt_b", "evt_b", "evt_a", "evt_a"], "\(round)")
            #expect(Set(all.map(\.id)).count == 6, "\(round)")
            try await Self.flush(f)
        }
        try await f.store.shutdown()
    }

    /// A process killed between two copies: the rows it stored past the last are found at once
    /// after the restart, and copied by the next batch.
    @Test func aStartIndexesWhatAKilledProcessLeftInMemory() async throws {
        let (store, url) = try await TestBackend.sqlite.openStore()
        let appId = "app" + UUID().uuidString.prefix(8).lowercased()
        try await store.createApp(App(id: appId, name: "Acme", region: "us", createdAt: Date()), firstKeyId: "key_" + appId, keyHash: "h" + appId)
        let f = Fixture(store: store, appId: appId)
        try await Self.commit(f, "evt_a", ["ana"], at: 0)
        try await Self.flush(f)
        let flushed = try await Self.through(store)
        #expect(flushed > 0)
        try await Self.commit(f, "evt_b", ["ana", "bob"], at: 10)
        // What a SIGKILL between two batches leaves: the table as of the last copy.
        try await store.shutdown()
        let file = try await SQLStore.open(url, migrate: false)
        let left = try await file.transaction { db in
            try await db.raw("DELETE FROM delivery_users WHERE created_at > \(bind: f.now.ms)").perform()
            try await db.raw("UPDATE delivery_users_indexed SET through = \(bind: flushed)").perform()
            return try await db.raw("SELECT COUNT(*) AS n FROM delivery_users").firstRow()?.int("n")
        }
        #expect(left == 1)
        try await file.shutdown()

        let restarted = try await SQLStore.open(url)
        let g = Fixture(store: restarted, appId: appId)
        for copied in [false, true] {
            #expect(try await Self.pages(g, DeliveryFilter(uid: "ana"), limit: 1).flatMap { $0 }.map(\.subject.id) == ["evt_b", "evt_a"])
            #expect(try await Self.pages(g, DeliveryFilter(uid: "bob"), limit: 10).flatMap { $0 }.map(\.subject.id) == ["evt_b"])
            if !copied { try await Self.flush(g) }
        }
        let copied = try await restarted.transaction { db in try await db.raw("SELECT COUNT(*) AS n FROM delivery_users").firstRow()?.int("n") }
        #expect(copied == 3)

        // Purged deliveries leave the table; rows stored after the newest ones went are found
        // by the next start too (their rowids may be ones given before).
        #expect(try await restarted.purge(appId: appId, before: f.now.addingTimeInterval(3_600)) >= 0)
        #expect(try await Self.pages(g, DeliveryFilter(uid: "ana"), limit: 10).isEmpty)
        let entries = try await restarted.transaction { db in try await db.raw("SELECT COUNT(*) AS n FROM delivery_users").firstRow()?.int("n") }
        #expect(entries == 0)
        #expect(try await Self.through(restarted) == 0)
        try await Self.commit(g, "evt_c", ["ana"], at: 7_200)
        try await restarted.shutdown()
        let again = try await SQLStore.open(url, migrate: false)
        try await again.transaction { db in
            try await db.raw("DELETE FROM delivery_users").perform()
            try await db.raw("UPDATE delivery_users_indexed SET through = 0").perform()
        }
        try await again.shutdown()
        let last = try await SQLStore.open(url)
        let h = Fixture(store: last, appId: appId)
        #expect(try await Self.pages(h, DeliveryFilter(uid: "ana"), limit: 10).flatMap { $0 }.map(\.subject.id) == ["evt_c"])
        try await Self.flush(h)
        #expect(try await Self.pages(h, DeliveryFilter(uid: "ana"), limit: 10).flatMap { $0 }.map(\.subject.id) == ["evt_c"])
        try await last.shutdown()
    }
}
