import Foundation
import HeraldCore
import HeraldModels
import HeraldTestSupport
import Logging
import Testing

@testable import HeraldStorage

/// What storage keeps in its in-process caches is never served once a write that changed it has
/// returned: a revoked key, a removed token, a disabled provider. On PostgreSQL two stores on one
/// database stand for two Herald processes, each with its caches and its `LISTEN`; on SQLite one
/// process owns the file, so the one store both writes and reads.
@Suite("Caches") struct CacheTests {
    /// The store that writes and the one that reads (on PostgreSQL, another process's).
    struct Processes {
        let writer: SQLStore
        let reader: SQLStore
        let appId: String
        let keyHash: String
        let now = Date()

        static func make(_ backend: TestBackend) async throws -> Processes {
            let (writer, url) = try await backend.openStore()
            var logger = Logger(label: "herald.test")
            logger.logLevel = .warning
            let reader = backend == .postgres ? try await SQLStore.open(url, logger: logger) : writer
            let appId = "app" + Identifier.hex(bytes: 4)
            let keyHash = "hash-" + appId + "-" + Identifier.hex(bytes: 8)
            try await writer.createApp(App(id: appId, name: "Acme", region: "us", createdAt: Date()), firstKeyId: "key_" + appId, keyHash: keyHash)
            // Both are live (a strict change waits for the live ones) and listen (caches are used
            // only by a process that hears the others' changes).
            for store in [writer, reader] { try await store.heartbeat(instance: store.instance, at: Date()) }
            let listening = ContinuousClock.now + .seconds(10)
            while !(writer.cachesHeard && reader.cachesHeard) {
                guard ContinuousClock.now < listening else { throw TestFailure("the caches' listeners did not start") }
                try await Task.sleep(for: .milliseconds(20))
            }
            return Processes(writer: writer, reader: reader, appId: appId, keyHash: keyHash)
        }

        func close() async throws {
            if reader !== writer { try await reader.shutdown() }
            try await writer.shutdown()
        }

        /// Ana, with a session for her tokens.
        func anaWithSession() async throws -> Session {
            _ = try await writer.upsertUser(appId: appId, User(uid: "ana", name: "Ana", createdAt: now, updatedAt: now))
            let session = Session(id: "s-" + appId, appId: appId, uid: "ana", createdAt: now)
            try await writer.createSession(session, tokenHash: "token-hash-" + appId)
            return session
        }

        /// An FCM token of Ana's.
        func token(_ value: String, of session: Session) -> PushToken {
            PushToken(
                appId: appId,
                uid: "ana",
                sessionId: session.id,
                providerId: "fcm-1",
                platform: .fcmAndroid,
                token: value,
                createdAt: now,
                lastSeenAt: now
            )
        }
    }

    static func withProcesses(_ backend: TestBackend, _ body: (Processes) async throws -> Void) async throws {
        let processes = try await Processes.make(backend)
        do {
            try await body(processes)
        } catch {
            try? await processes.close()
            throw error
        }
        try await processes.close()
    }

    @Test(arguments: TestBackend.available)
    func aRevokedKeyIsRefusedOnceTheRevocationReturns(_ backend: TestBackend) async throws {
        try await Self.withProcesses(backend) { (p: Processes) async throws in
            let prefix = SQLStore.prefix(p.keyHash)
            #expect(try await p.reader.apiKeys(hashPrefix: prefix).map(\.hash) == [p.keyHash])
            #expect(try await p.reader.apiKeys(hashPrefix: prefix).map(\.hash) == [p.keyHash], "served from the cache")
            #expect(try await p.writer.revokeKey(appId: p.appId, keyId: "key_" + p.appId, at: p.now))
            #expect(try await p.reader.apiKeys(hashPrefix: prefix).isEmpty)
        }
    }

    @Test(arguments: TestBackend.available)
    func aRemovedTokenIsNotReadOnceTheRemovalReturns(_ backend: TestBackend) async throws {
        try await Self.withProcesses(backend) { (p: Processes) async throws in
            let session = try await p.anaWithSession()
            let tokens = ["fcm-first-token-0000000000000", "fcm-second-token-000000000000"]
            for token in tokens {
                _ = try await p.writer.register(p.token(token, of: session), unique: false, maxPerUser: 20)
            }
            #expect(Set(try await p.reader.tokens(appId: p.appId, uids: ["ana"])["ana", default: []].map(\.token)) == Set(tokens))
            #expect(try await p.writer.deleteToken(appId: p.appId, uid: "ana", token: tokens[0]))
            #expect(try await p.reader.tokens(appId: p.appId, uids: ["ana"])["ana", default: []].map(\.token) == [tokens[1]])
            // A token added reaches the reader too (a moment later is allowed; here it is at once
            // on SQLite and within the listener's round trip on PostgreSQL).
            let third = p.token("fcm-third-token-0000000000000", of: session)
            _ = try await p.writer.register(third, unique: false, maxPerUser: 20)
            let deadline = ContinuousClock.now + .seconds(5)
            while try await p.reader.tokens(appId: p.appId, uids: ["ana"])["ana", default: []].count < 2, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(Set(try await p.reader.tokens(appId: p.appId, uids: ["ana"])["ana", default: []].map(\.token)) == [tokens[1], third.token])
        }
    }

    /// The fan-out's record of a recipient (preferences, mutes, tokens, unread counts, cached as
    /// one value) follows each change to any of them once the change returns.
    @Test(arguments: TestBackend.available)
    func aRecipientsRecordFollowsEveryChangeToIt(_ backend: TestBackend) async throws {
        try await Self.withProcesses(backend) { (p: Processes) async throws in
            let session = try await p.anaWithSession()
            func token(_ value: String) -> PushToken { p.token(value, of: session) }
            func record() async throws -> RecipientRecord? { try await p.reader.records(appId: p.appId, uids: ["ana", "bob"])["ana"] }
            let first = "fcm-first-token-0000000000000"
            _ = try await p.writer.register(token(first), unique: false, maxPerUser: 20)
            var preferences = NotificationPreferences()
            preferences.keywords = ["launch"]
            try await p.writer.setPreferences(appId: p.appId, uid: "ana", preferences, at: p.now)
            try await p.writer.setMute(appId: p.appId, uid: "ana", ConversationMute(conversationId: "group:g1", until: nil), at: p.now)
            let read = try #require(try await record())
            #expect(read.tokens.map(\.token) == [first] && read.preferences?.keywords == ["launch"])
            #expect(read.mutes.map(\.conversationId) == ["group:g1"] && read.unread.isEmpty)
            #expect(
                try await p.reader.records(appId: p.appId, uids: ["bob"])["bob", default: .empty] == .empty,
                "a user with nothing has an empty record"
            )
            // Served from the cache: a count put in behind its back is not seen...
            try await p.writer.transaction { db in
                try await db.raw(
                    "INSERT INTO unread_counts (app_id, uid, conversation_id, count, updated_at) VALUES (\(bind: p.appId), 'ana', 'group:g1', 3, 0)"
                ).run()
            }
            #expect(try await record()?.unread.isEmpty == true, "served from the cache")
            // ...until a write through the store changes one of the four: each drops the record.
            #expect(try await p.writer.deleteMute(appId: p.appId, uid: "ana", conversationId: "group:g1"))
            let afterMute = try #require(try await record())
            #expect(afterMute.mutes.isEmpty && afterMute.unread == ["group:g1": 3] && afterMute.tokens.map(\.token) == [first])
            preferences.keywords = ["ship"]
            try await p.writer.setPreferences(appId: p.appId, uid: "ana", preferences, at: p.now)
            #expect(try await record()?.preferences?.keywords == ["ship"])
            #expect(try await p.writer.deleteToken(appId: p.appId, uid: "ana", token: first))
            #expect(try await record()?.tokens.isEmpty == true, "a removed token is never read once the removal returns")
            // A token added reaches the reader too (on PostgreSQL within the listener's round trip).
            let second = "fcm-second-token-000000000000"
            _ = try await p.writer.register(token(second), unique: false, maxPerUser: 20)
            let deadline = ContinuousClock.now + .seconds(5)
            while try await record()?.tokens.isEmpty != false, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(try await record()?.tokens.map(\.token) == [second])
        }
    }

    /// A fan-out's commit tells the other processes which users' unread counts moved, however
    /// many and however long their uids: those users' records are read again, and every other
    /// cached record stays (a long list was once sent as "the whole app", dropping them all in
    /// every process at each commit, and a list of uuids over 8,000 bytes was not sent at all).
    @Test(arguments: TestBackend.available)
    func aCommitsUnreadCountsReachTheOtherProcessesForTheUsersItNamesOnly(_ backend: TestBackend) async throws {
        try await Self.withProcesses(backend) { (p: Processes) async throws in
            let f = RepositoryTests.Fixture(store: p.writer, appId: p.appId)
            let event = try await f.groupMessage("evt_" + p.appId, claimedUntil: f.now.addingTimeInterval(60))
            let uids = (0..<1_000).map { _ in UUID().uuidString.lowercased() }
            // The reader has every record cached, Zed's among them (no count), ...
            #expect(try await p.reader.records(appId: p.appId, uids: uids + ["zed"]).values.allSatisfy { $0 == .empty })
            // ...and a count of Zed's is put in behind the caches' back: seen only if Zed's record is dropped.
            try await p.writer.transaction { db in
                try await db.raw(
                    "INSERT INTO unread_counts (app_id, uid, conversation_id, count, updated_at) VALUES (\(bind: p.appId), 'zed', 'group_g1', 3, 0)"
                ).run()
            }
            let step = RepositoryTests.fanOutStep(f, eventId: event.id, uids, from: nil, to: nil, leaseUntil: f.now.addingTimeInterval(60))
            #expect(try await p.writer.commitFanOut([step], at: f.now) == [event.id])
            // Every user named is read again with the commit's count (on PostgreSQL once the notices arrive).
            let deadline = ContinuousClock.now + .seconds(10)
            var moved = try await p.reader.records(appId: p.appId, uids: uids)
            func arrived() -> Bool { uids.allSatisfy { moved[$0]?.unread == ["group_g1": 1] } }
            while !arrived(), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                moved = try await p.reader.records(appId: p.appId, uids: uids)
            }
            #expect(arrived(), "every named user's count arrived")
            #expect(try await p.reader.records(appId: p.appId, uids: ["zed"])["zed", default: .empty].unread.isEmpty, "Zed's record stayed cached")
        }
    }

    /// A batch of users changed is never read stale by another process once the call returns,
    /// whatever the length of their uids: 250 uuids are ~9,300 bytes, over what one `NOTIFY`
    /// carries, and that notice used to fail, leaving the other process its old users (the
    /// writer went on after waiting three seconds for answers that never came).
    @Test(arguments: TestBackend.available)
    func aBatchOfUsersWithLongUidsIsReadChangedOnceTheCallReturns(_ backend: TestBackend) async throws {
        try await Self.withProcesses(backend) { (p: Processes) async throws in
            let uids = (0..<250).map { _ in UUID().uuidString.lowercased() }
            func batch(_ name: String) -> [User] { uids.map { User(uid: $0, name: name, createdAt: p.now, updatedAt: p.now) } }
            try await p.writer.upsertUsers(appId: p.appId, batch("Before"))
            #expect(try await p.reader.users(appId: p.appId, uids: uids).values.allSatisfy { $0.name == "Before" })
            try await p.writer.upsertUsers(appId: p.appId, batch("After"))
            let read = try await p.reader.users(appId: p.appId, uids: uids)
            #expect(read.count == uids.count && read.values.allSatisfy { $0.name == "After" })
        }
    }

    /// What a user has none of (preferences, mutes, unread counts: most users) is kept as
    /// absent, not read again for every batch that names them. Rows put in behind the caches'
    /// back stay unseen until a write through the store changes the user.
    @Test(arguments: TestBackend.available)
    func whatAUserHasNoneOfIsCachedAsAbsent(_ backend: TestBackend) async throws {
        try await Self.withProcesses(backend) { (p: Processes) async throws in
            let store = p.writer
            #expect(try await store.preferences(appId: p.appId, uids: ["ana", "bob"]).isEmpty)
            #expect(try await store.mutes(appId: p.appId, uids: ["ana", "bob"]).isEmpty)
            #expect(try await store.unreadCounts(appId: p.appId, uids: ["ana", "bob"]).isEmpty)
            try await store.transaction { db in
                for uid in ["ana", "bob"] {
                    try await db.raw("INSERT INTO preferences (app_id, uid, prefs, updated_at) VALUES (\(bind: p.appId), \(bind: uid), '{}', 0)")
                        .run()
                    try await db.raw(
                        "INSERT INTO mutes (app_id, uid, conversation_id, until, created_at) VALUES (\(bind: p.appId), \(bind: uid), 'group:g1', NULL, 0)"
                    ).run()
                    try await db.raw(
                        "INSERT INTO unread_counts (app_id, uid, conversation_id, count, updated_at) VALUES (\(bind: p.appId), \(bind: uid), 'group:g1', 3, 0)"
                    ).run()
                }
            }
            #expect(try await store.preferences(appId: p.appId, uids: ["ana", "bob"]).isEmpty, "served from the cache")
            #expect(try await store.mutes(appId: p.appId, uids: ["ana", "bob"]).isEmpty, "served from the cache")
            #expect(try await store.unreadCounts(appId: p.appId, uids: ["ana", "bob"]).isEmpty, "served from the cache")
            // A write through the store drops what it changed: Ana's rows are read again.
            try await store.setMute(appId: p.appId, uid: "ana", ConversationMute(conversationId: "user:cy", until: nil), at: p.now)
            #expect(
                Set(try await store.mutes(appId: p.appId, uids: ["ana", "bob"])["ana", default: []].map(\.conversationId)) == ["group:g1", "user:cy"]
            )
            #expect(try await store.preferences(appId: p.appId, uids: ["ana", "bob"]).keys.sorted() == ["ana"])
            #expect(try await store.mutes(appId: p.appId, uids: ["bob"]).isEmpty, "Bob's absence is still cached")
        }
    }

    @Test(arguments: TestBackend.available)
    func aDisabledProviderIsReadDisabledOnceTheChangeReturns(_ backend: TestBackend) async throws {
        try await Self.withProcesses(backend) { (p: Processes) async throws in
            let settings = ProviderSettings.fcm(FCMSettings(projectId: "acme-chat", clientEmail: "herald@acme-chat.iam.gserviceaccount.com"))
            var credential = ProviderCredential(
                appId: p.appId,
                providerId: "fcm-1",
                config: ProviderConfig(settings),
                sealedSecret: "sealed",
                createdAt: p.now,
                updatedAt: p.now
            )
            #expect(try await p.writer.insertProvider(credential))
            #expect(try await p.reader.provider(appId: p.appId, providerId: "fcm-1")?.config.enabled == true)
            #expect(try await p.reader.provider(appId: p.appId, providerId: "fcm-1")?.config.enabled == true, "served from the cache")
            credential.config.enabled = false
            credential.updatedAt = p.now.addingTimeInterval(1)
            try await p.writer.updateProvider(credential)
            #expect(try await p.reader.provider(appId: p.appId, providerId: "fcm-1")?.config.enabled == false)
            #expect(try await p.reader.providers(appId: p.appId).map(\.config.enabled) == [false])
            _ = try await p.writer.deleteProvider(appId: p.appId, providerId: "fcm-1", force: true)
            #expect(try await p.reader.provider(appId: p.appId, providerId: "fcm-1") == nil)
        }
    }
}
