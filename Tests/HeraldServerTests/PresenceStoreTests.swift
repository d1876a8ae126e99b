import Foundation
import HeraldCore
import HeraldStorage
import HeraldTestSupport
import Testing

@testable import HeraldServer

/// The presence contract, on every store: memory (one process on SQLite) and the database
/// (several processes; tested on SQLite and PostgreSQL).
@Suite("Presence stores")
struct PresenceStoreTests {
    enum Kind: String, CaseIterable, Sendable {
        case memory, sqlite, postgres
    }

    static var kinds: [Kind] {
        TestBackend.available.contains(.postgres) ? Kind.allCases : [.memory, .sqlite]
    }

    static func store(_ kind: Kind) async throws -> (any PresenceStore, SQLStore?) {
        switch kind {
        case .memory: return (MemoryPresenceStore(), nil)
        case .sqlite:
            let (store, _) = try await TestBackend.sqlite.openStore()
            return (store, store)
        case .postgres:
            let (store, _) = try await TestBackend.postgres.openStore()
            return (store, store)
        }
    }

    @Test(arguments: kinds)
    func onlineOfflineLiveInstancesAndPurge(_ kind: Kind) async throws {
        let (store, sql) = try await Self.store(kind)
        let app = "app-" + UUID().uuidString
        let here = "h" + UUID().uuidString.prefix(8).lowercased()
        let there = "h" + UUID().uuidString.prefix(8).lowercased()
        // In the past, so that its purge touches only its own rows of the shared test database.
        let t0 = Date(timeIntervalSince1970: 1_000_000_000)
        try await store.heartbeat(instance: here, at: t0)
        try await store.heartbeat(instance: there, at: t0)
        try await store.markOnline(PresenceRecord(appId: app, uid: "ana", sessionId: "s1", instance: here, since: t0))
        try await store.markOnline(PresenceRecord(appId: app, uid: "ana", sessionId: "s2", instance: there, since: t0))
        try await store.markOnline(PresenceRecord(appId: app, uid: "bo", sessionId: "s3", instance: here, since: t0))
        try await store.markOnline(PresenceRecord(appId: "other-" + app, uid: "ana", sessionId: "s4", instance: here, since: t0))

        var rows = try await store.presence(appId: app, uids: ["ana", "bo", "cy"], liveSince: t0)
        #expect(Set(rows.map(\.sessionId)) == ["s1", "s2", "s3"])
        #expect(rows.allSatisfy { $0.isConnected })

        // Offline keeps the row (for the grace period); a new socket brings it back with a new `since`.
        try await store.markOffline(appId: app, sessionId: "s1", instance: here, at: t0.addingTimeInterval(5))
        rows = try await store.presence(appId: app, sessionIds: ["s1"], liveSince: t0)
        #expect(rows.first?.offlineAt == t0.addingTimeInterval(5))
        #expect(rows.first?.isOnline(at: t0.addingTimeInterval(7), grace: 5) == true)
        #expect(rows.first?.isOnline(at: t0.addingTimeInterval(11), grace: 5) == false)
        try await store.markOnline(PresenceRecord(appId: app, uid: "ana", sessionId: "s1", instance: here, since: t0.addingTimeInterval(20)))
        #expect(try await store.presence(appId: app, sessionIds: ["s1"], liveSince: t0).first?.since == t0.addingTimeInterval(20))
        // Another app cannot mark this app's session offline.
        try await store.markOffline(appId: "other-" + app, sessionId: "s1", instance: here, at: t0)
        #expect(try await store.presence(appId: app, sessionIds: ["s1"], liveSince: t0).first?.isConnected == true)

        // A process that stops heartbeating takes its sessions with it.
        try await store.heartbeat(instance: here, at: t0.addingTimeInterval(30))
        rows = try await store.presence(appId: app, uids: ["ana"], liveSince: t0.addingTimeInterval(20))
        #expect(rows.map(\.sessionId) == ["s1"])

        try await store.markOffline(appId: app, sessionId: "s3", instance: here, at: t0.addingTimeInterval(30))
        try await store.purgePresence(offlineBefore: t0.addingTimeInterval(31), deadBefore: t0.addingTimeInterval(20))
        #expect(try await store.presence(appId: app, uids: ["ana", "bo"], liveSince: .distantPast).map(\.sessionId) == ["s1"])
        try await sql?.shutdown()
    }

    /// A process that stops gracefully is gone at once: its sessions are nobody's presence, and
    /// (on the database) no other process waits for it.
    @Test(arguments: kinds)
    func aRetiredProcessIsGoneAtOnce(_ kind: Kind) async throws {
        let (store, sql) = try await Self.store(kind)
        let app = "app-" + UUID().uuidString
        let here = "h" + UUID().uuidString.prefix(8).lowercased()
        let there = "h" + UUID().uuidString.prefix(8).lowercased()
        let now = Date()
        try await store.heartbeat(instance: here, at: now)
        try await store.heartbeat(instance: there, at: now)
        try await store.markOnline(PresenceRecord(appId: app, uid: "ana", sessionId: "s1", instance: here, since: now))
        try await store.markOnline(PresenceRecord(appId: app, uid: "bo", sessionId: "s2", instance: there, since: now))
        try await store.retire(instance: here)
        let rows = try await store.presence(appId: app, uids: ["ana", "bo"], liveSince: now.addingTimeInterval(-10))
        #expect(rows.map(\.sessionId) == ["s2"])
        if let sql {
            let live = try await sql.liveInstances(since: now.addingTimeInterval(-10))
            #expect(live.contains(there) && !live.contains(here))
        }
        try await sql?.shutdown()
    }

    /// The engine asks about a whole group at once: 10,000 users in one call.
    @Test(arguments: kinds)
    func tenThousandUsersInOneQuestion(_ kind: Kind) async throws {
        let (store, sql) = try await Self.store(kind)
        let app = "app-" + UUID().uuidString
        let instance = "h" + UUID().uuidString.prefix(8).lowercased()
        let now = Date()
        try await store.heartbeat(instance: instance, at: now)
        let uids = (0..<10_000).map { "user-\($0)" }
        let online = stride(from: 0, to: 10_000, by: 50).map { uids[$0] }
        for uid in online {
            try await store.markOnline(PresenceRecord(appId: app, uid: uid, sessionId: "ses-" + uid, instance: instance, since: now))
        }
        let rows = try await store.presence(appId: app, uids: uids, liveSince: now.addingTimeInterval(-10))
        #expect(Set(rows.map(\.uid)) == Set(online))
        try await sql?.shutdown()
    }
}
