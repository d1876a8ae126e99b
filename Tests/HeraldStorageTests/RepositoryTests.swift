import Foundation
import HeraldCore
import HeraldModels
import HeraldStorage
import HeraldTestSupport
import Testing

extension TestBackend: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

/// One repository suite, run on every back-end (as sql-kit runs its suite on every driver).
@Suite("Repositories")
struct RepositoryTests {
    struct Fixture {
        let store: SQLStore
        let appId: String
        let now = Date(millisecondsSince1970: 1_700_000_000_000)

        static func make(_ backend: TestBackend) async throws -> Fixture {
            let (store, _) = try await backend.openStore()
            let appId = "app" + UUID().uuidString.prefix(8).lowercased()
            try await store.createApp(
                App(id: appId, name: "Acme", region: "us", createdAt: Date()),
                firstKeyId: "key_" + appId,
                keyHash: "hash-" + appId
            )
            return Fixture(store: store, appId: appId)
        }

        func user(_ uid: String) async throws {
            _ = try await store.upsertUser(appId: appId, User(uid: uid, name: uid, createdAt: now, updatedAt: now))
        }

        func session(_ uid: String, _ id: String) async throws -> Session {
            let session = Session(id: id + appId, appId: appId, uid: uid, createdAt: now)
            try await store.createSession(session, tokenHash: "token-hash-" + id + appId)
            return session
        }

        /// A stored group message event, claimed for fan-out until `claimedUntil`.
        func groupMessage(_ id: String, claimedUntil: Date? = nil) async throws -> ChatEvent {
            let parsed = try EventParser.parse(
                .object([
                    "type": .string("message"),
                    "message": .object([
                        "id": .number(1), "text": .string("Hi"), "sender": .string("ana"), "receiver": .string("g1"),
                        "receiverType": .string("group"),
                    ]),
                ]),
                now: now
            )
            let event = ChatEvent(id: id, appId: appId, clientId: nil, receivedAt: now, body: parsed.body)
            _ = try await store.insertEvents([event], claim: claimedUntil.map { Claim(owner: "test", until: $0) })
            return event
        }

        /// The uids of a group's members, read page by page (`pageSize` at a time) as a client does.
        func memberUids(_ guid: String, pageSize: Int) async throws -> [String] {
            var seen: [String] = []
            var after: String?
            repeat {
                let page = try await store.members(appId: appId, guid: guid, afterUid: after, limit: pageSize)
                seen += page.map(\.uid)
                after = page.count == pageSize ? page.last?.uid : nil
            } while after != nil
            return seen
        }

        func token(_ session: Session, _ token: String, platform: PushPlatform = .fcmAndroid, at offset: Int64 = 0) -> PushToken {
            let at = Date(millisecondsSince1970: now.millisecondsSince1970 + offset)
            return PushToken(
                appId: appId,
                uid: session.uid,
                sessionId: session.id,
                providerId: "fcm-1",
                platform: platform,
                token: token,
                createdAt: at,
                lastSeenAt: at
            )
        }
    }

    @Test(arguments: TestBackend.available)
    func migrationsAreIdempotent(_ backend: TestBackend) async throws {
        let fixture = try await Fixture.make(backend)
        defer { Task { try? await fixture.store.shutdown() } }
        #expect(try await fixture.store.migrate() == [])
    }

    @Test(arguments: TestBackend.available)
    func userUpsertKeepsCreationTime(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        let first = try await f.store.upsertUser(
            appId: f.appId,
            User(uid: "ana", name: "Ana", metadata: ["plan": .string("pro")], tags: ["vip"], locale: "pt-BR", createdAt: f.now, updatedAt: f.now)
        )
        let later = Date(millisecondsSince1970: f.now.millisecondsSince1970 + 5_000)
        let second = try await f.store.upsertUser(appId: f.appId, User(uid: "ana", name: "Ana B", createdAt: later, updatedAt: later))
        #expect(first.metadata == ["plan": .string("pro")])
        #expect(first.tags == ["vip"])
        #expect(second.createdAt == f.now)
        #expect(second.updatedAt == later)
        #expect(second.name == "Ana B")
        #expect(second.metadata == nil)
        #expect(try await f.store.user(appId: "other-app", uid: "ana") == nil)
        try await f.store.shutdown()
    }

    @Test(arguments: TestBackend.available)
    func tokenCapHoldsUnderConcurrentRegistrations(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        try await f.user("bo")
        let session = try await f.session("bo", "s1")
        let tokens = (0..<60).map { "fcm-token-\($0)-" + String(repeating: "x", count: 30) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, token) in tokens.enumerated() {
                group.addTask { _ = try await f.store.register(f.token(session, token, at: Int64(index)), unique: false, maxPerUser: 20) }
            }
            try await group.waitForAll()
        }
        let kept = try await f.store.tokens(appId: f.appId, uid: "bo")
        #expect(kept.count == 20)
        // The least recently registered went first: the 20 newest remain.
        #expect(Set(kept.map(\.token)) == Set(tokens.suffix(20)))
        try await f.store.shutdown()
    }

    /// Registrations that arrive together (on PostgreSQL, stored by one statement) are each
    /// answered on their own: one for a user who does not exist fails alone, the others stand.
    @Test(arguments: TestBackend.available)
    func registrationsArrivingTogetherAreAnsweredEachOnItsOwn(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        let uids = (0..<20).map { "u\($0)" }
        var sessions: [String: Session] = [:]
        for uid in uids {
            try await f.user(uid)
            sessions[uid] = try await f.session(uid, "s-" + uid)
        }
        let sessionOf = sessions
        let answers = await withTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<80 {
                group.addTask {
                    var token = f.token(sessionOf[uids[index % uids.count]]!, "fcm-\(index)-" + String(repeating: "x", count: 30))
                    if index % 10 == 9 { token.uid = "nobody" }
                    do {
                        return (index, try await f.store.register(token, unique: false, maxPerUser: 20).token.uid)
                    } catch let error as HeraldError where error.kind == .notFound {
                        return (index, nil)
                    } catch {
                        return (index, "error: \(error)")
                    }
                }
            }
            return await group.reduce(into: [Int: String?]()) { $0[$1.0] = $1.1 }
        }
        for index in 0..<80 {
            #expect(answers[index] == (index % 10 == 9 ? String?.none : uids[index % uids.count]), "registration \(index)")
        }
        var stored = 0
        for uid in uids { stored += try await f.store.tokens(appId: f.appId, uid: uid).count }
        #expect(stored == 72)
        try await f.store.shutdown()
    }

    @Test(arguments: TestBackend.available)
    func registrationRefreshesMovesAndUniques(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        try await f.user("ana")
        try await f.user("bo")
        let ana = try await f.session("ana", "a1")
        let bo = try await f.session("bo", "b1")
        let device = String(repeating: "ab", count: 32)
        let voip = String(repeating: "cd", count: 32)

        let first = try await f.store.register(f.token(ana, device, platform: .apnsIOSDevice), unique: false, maxPerUser: 20)
        #expect(first.movedFromUid == nil)
        _ = try await f.store.register(f.token(ana, voip, platform: .apnsIOSVoIP), unique: false, maxPerUser: 20)
        let refreshed = try await f.store.register(f.token(ana, device, platform: .apnsIOSDevice, at: 1_000), unique: false, maxPerUser: 20)
        #expect(refreshed.token.createdAt == f.now)
        #expect(refreshed.token.lastSeenAt.millisecondsSince1970 == f.now.millisecondsSince1970 + 1_000)
        #expect(try await f.store.tokens(appId: f.appId, uid: "ana").count == 2)

        // A user who does not exist gets no token, and nobody else's token moves.
        var nobodys = f.token(ana, voip, platform: .apnsIOSVoIP, at: 1_500)
        nobodys.uid = "nobody"
        await #expect(throws: HeraldError.self) { _ = try await f.store.register(nobodys, unique: true, maxPerUser: 1) }
        #expect(try await f.store.tokens(appId: f.appId, uid: "ana").count == 2)

        // The same device token registered by another user moves to that user.
        let moved = try await f.store.register(f.token(bo, device, platform: .apnsIOSDevice, at: 2_000), unique: false, maxPerUser: 20)
        #expect(moved.movedFromUid == "ana")
        #expect(try await f.store.tokens(appId: f.appId, uid: "ana").map(\.token) == [voip])
        #expect(try await f.store.tokens(appId: f.appId, uid: "bo").map(\.token) == [device])

        // unique removes the user's other tokens of the same kind only.
        _ = try await f.store.register(f.token(bo, "fcm-old-token-000000000000", at: 3_000), unique: false, maxPerUser: 20)
        let unique = try await f.store.register(
            f.token(bo, String(repeating: "ef", count: 32), platform: .apnsIOSDevice, at: 4_000),
            unique: true,
            maxPerUser: 20
        )
        #expect(unique.removedTokens == [device])
        #expect(
            Set(try await f.store.tokens(appId: f.appId, uid: "bo").map(\.token)) == [
                "fcm-old-token-000000000000", String(repeating: "ef", count: 32),
            ]
        )

        // A session is found by the first 16 characters of its token hash, with the whole hash.
        let found = try await f.store.sessions(tokenHashPrefix: String(("token-hash-" + bo.id).prefix(16)))
        #expect(found.contains { $0.owner.id == bo.id && $0.hash == "token-hash-" + bo.id })
        // Closing a session removes its tokens and nobody else's.
        #expect(try await f.store.deleteSession(appId: f.appId, uid: "bo", sessionId: bo.id))
        #expect(try await f.store.tokens(appId: f.appId, uid: "bo").isEmpty)
        #expect(try await f.store.tokens(appId: f.appId, uid: "ana").count == 1)
        #expect(try await f.store.sessions(tokenHashPrefix: String(("token-hash-" + bo.id).prefix(16))).filter { $0.owner.id == bo.id }.isEmpty)
        try await f.store.shutdown()
    }

    @Test(arguments: TestBackend.available)
    func membersArePagedAndChunked(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        let uids = (0..<2_500).map { String(format: "user-%05d", $0) }
        for uid in uids.prefix(2_400) { try await f.user(uid) }
        _ = try await f.store.upsertGroup(appId: f.appId, Group(guid: "g1", name: "G", type: .public, createdAt: f.now, updatedAt: f.now))

        let added = try await f.store.addMembers(appId: f.appId, guid: "g1", uids: uids, scope: .participant, at: f.now)
        #expect(added.added == 2_400)
        #expect(added.updated == 0)
        #expect(added.notFound == Array(uids.suffix(100)))
        let again = try await f.store.addMembers(appId: f.appId, guid: "g1", uids: Array(uids.prefix(10)), scope: .admin, at: f.now)
        #expect(again.added == 0 && again.updated == 10)
        #expect(try await f.store.group(appId: f.appId, guid: "g1")?.membersCount == 2_400)

        #expect(try await f.memberUids("g1", pageSize: 700) == Array(uids.prefix(2_400)))
        #expect(try await f.store.members(appId: f.appId, guid: "g1", afterUid: nil, limit: 1).first?.scope == .admin)

        #expect(try await f.store.removeMember(appId: f.appId, guid: "g1", uid: "user-00000"))
        #expect(try await !f.store.removeMember(appId: f.appId, guid: "g1", uid: "user-00000"))
        #expect(try await f.store.deleteUser(appId: f.appId, uid: "user-00001"))
        #expect(try await f.store.group(appId: f.appId, guid: "g1")?.membersCount == 2_398)
        try await f.store.shutdown()
    }

    @Test(arguments: TestBackend.available)
    func apiKeysRotateAndRevoke(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        func appIds(_ hash: String) async throws -> [String] {
            try await f.store.apiKeys(hashPrefix: String(hash.prefix(16))).filter { $0.hash == hash }.map(\.owner)
        }
        try await f.store.addKey(appId: f.appId, keyId: "k2" + f.appId, keyHash: "hash2-" + f.appId, at: f.now)
        #expect(try await appIds("hash-" + f.appId) == [f.appId])
        #expect(try await appIds("hash2-" + f.appId) == [f.appId])
        #expect(try await f.store.revokeKey(appId: f.appId, keyId: "key_" + f.appId, at: f.now))
        #expect(try await !f.store.revokeKey(appId: f.appId, keyId: "key_" + f.appId, at: f.now))
        #expect(try await !f.store.revokeKey(appId: "another", keyId: "k2" + f.appId, at: f.now))
        #expect(try await appIds("hash-" + f.appId).isEmpty)
        #expect(try await appIds("hash2-" + f.appId) == [f.appId])
        try await f.store.shutdown()
    }

    /// A lease renewal writes only the leases that would run out before the next one: a lease with
    /// time to spare keeps its end (and its row is not written again).
    @Test(arguments: TestBackend.available)
    func aLeaseIsRenewedOnlyWhenItWouldRunOutSoon(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        let ending = try await f.groupMessage("evt_a" + f.appId, claimedUntil: f.now.addingTimeInterval(3))
        let spare = try await f.groupMessage("evt_b" + f.appId, claimedUntil: f.now.addingTimeInterval(100))
        try await f.store.renewEventLeases(
            ids: [ending.id, spare.id],
            until: f.now.addingTimeInterval(60),
            endingBefore: f.now.addingTimeInterval(40)
        )
        func claimable(at seconds: TimeInterval) async throws -> [String] {
            let at = f.now.addingTimeInterval(seconds)
            return try await f.store.claimEvents(limit: 10, now: at, claim: Claim(owner: "other", until: at.addingTimeInterval(600))).map(\.event.id)
        }
        #expect(try await claimable(at: 50).isEmpty, "the lease that was ending now runs to 60 s")
        #expect(try await claimable(at: 70) == [ending.id], "and the one with time to spare still ends at 100 s, not 60")
        #expect(try await claimable(at: 110) == [spare.id])
        try await f.store.shutdown()
    }

    /// Two workers on one event (the first was slow and its lease ran out): whoever records a
    /// page first wins; the other's step records nothing — no second delivery, no doubled
    /// unread count or recipient count — and is told so, so it does not go on to the next page.
    @Test(arguments: TestBackend.available)
    func aFanOutStepTakenOverRecordsOnce(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        let event = try await f.groupMessage("evt_" + f.appId, claimedUntil: f.now.addingTimeInterval(3))
        // The lease runs out; a second worker claims the event at the same place.
        let later = f.now.addingTimeInterval(10)
        #expect(
            try await f.store.claimEvents(limit: 10, now: later, claim: Claim(owner: "test", until: later.addingTimeInterval(3))).map(\.event.id) == [
                event.id
            ]
        )

        func step(_ uids: [String], from: String?, to: String?) -> FanOutStep {
            Self.fanOutStep(f, eventId: event.id, uids, from: from, to: to, leaseUntil: later.addingTimeInterval(60))
        }
        // The recipients' records, read (and cached) before: their unread counts move in place.
        #expect(try await f.store.records(appId: f.appId, uids: ["bo", "cy", "di"]).values.allSatisfy { $0 == .empty })
        // Page one, recorded by the second worker, then by the slow first one.
        #expect(try await f.store.commitFanOut([step(["bo", "cy"], from: nil, to: "cy")], at: later) == [event.id])
        #expect(try await f.store.commitFanOut([step(["bo", "cy"], from: nil, to: "cy")], at: later).isEmpty)
        // Page two (the last), the same way round.
        #expect(try await f.store.commitFanOut([step(["di"], from: "cy", to: nil)], at: later) == [event.id])
        #expect(try await f.store.commitFanOut([step(["di"], from: "cy", to: nil)], at: later).isEmpty)
        // And a worker replaying the first page after the event finished.
        #expect(try await f.store.commitFanOut([step(["bo", "cy"], from: nil, to: "cy")], at: later).isEmpty)

        let stored = try await f.store.storedEvent(appId: f.appId, id: event.id)
        #expect(stored?.status == .done)
        #expect(stored?.recipients == 3)
        let logged = try await f.store.deliveries(appId: f.appId, filter: DeliveryFilter(eventId: event.id), after: nil, limit: 50)
        #expect(logged.map(\.uid).sorted() == ["bo", "cy", "di"])
        let unread = try await f.store.unreadCounts(appId: f.appId, uids: ["bo", "cy", "di"])
        #expect(unread == ["bo": ["group_g1": 1], "cy": ["group_g1": 1], "di": ["group_g1": 1]])
        #expect(try await f.store.records(appId: f.appId, uids: ["bo", "cy", "di"]).mapValues(\.unread) == unread, "moved once, as stored")
        try await f.store.shutdown()
    }

    /// A page naming a recipient whose delivery of the event is already stored (`deliveries_once`)
    /// keeps that one and records the rest: the clash is not an error, and nothing is lost.
    @Test(arguments: TestBackend.available)
    func aDeliveryStoredBeforeIsKeptOnce(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        let event = try await f.groupMessage("evt_" + f.appId, claimedUntil: f.now.addingTimeInterval(60))
        let lease = f.now.addingTimeInterval(60)
        #expect(
            try await f.store.commitFanOut([Self.fanOutStep(f, eventId: event.id, ["bo", "cy"], from: nil, to: "cy", leaseUntil: lease)], at: f.now)
                == [event.id]
        )
        #expect(
            try await f.store.commitFanOut([Self.fanOutStep(f, eventId: event.id, ["cy", "di"], from: "cy", to: nil, leaseUntil: lease)], at: f.now)
                == [event.id]
        )
        let logged = try await f.store.deliveries(appId: f.appId, filter: DeliveryFilter(eventId: event.id), after: nil, limit: 50)
        #expect(logged.map(\.uid).sorted() == ["bo", "cy", "di"])
        #expect(try await f.store.storedEvent(appId: f.appId, id: event.id)?.status == .done)
        try await f.store.shutdown()
    }

    /// An event's first page goes in without looking for stored deliveries (PostgreSQL), but a
    /// recipient and target it names twice are still stored once, and the page is recorded.
    @Test(arguments: TestBackend.available)
    func aFirstPageNamingATargetTwiceStoresItOnce(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        let event = try await f.groupMessage("evt_" + f.appId, claimedUntil: f.now.addingTimeInterval(60))
        let step = Self.fanOutStep(f, eventId: event.id, ["bo", "cy", "bo"], from: nil, to: nil, leaseUntil: f.now.addingTimeInterval(60))
        #expect(try await f.store.commitFanOut([step], at: f.now) == [event.id])
        let logged = try await f.store.deliveries(appId: f.appId, filter: DeliveryFilter(eventId: event.id), after: nil, limit: 50)
        #expect(logged.map(\.uid).sorted() == ["bo", "cy"])
        #expect(logged.first { $0.uid == "bo" }?.id == step.deliveries[0].id)
        #expect(try await f.store.storedEvent(appId: f.appId, id: event.id)?.status == .done)
        try await f.store.shutdown()
    }

    /// A fan-out step of a group message to `uids` (a delivery each, new ids), from one page's
    /// cursor to the next's (nil: the last page).
    static func fanOutStep(_ f: Fixture, eventId: String, _ uids: [String], from: String?, to: String?, leaseUntil: Date) -> FanOutStep {
        let deliveries = uids.map { uid in
            Delivery(
                appId: f.appId,
                subject: .event(eventId),
                uid: uid,
                target: .token("token-" + uid),
                providerId: "fcm-1",
                platform: .fcmAndroid,
                route: .alert,
                status: .delivered,
                createdAt: f.now
            )
        }
        return FanOutStep(
            appId: f.appId,
            eventId: eventId,
            deliveries: deliveries,
            unreadIncrements: uids.map { UnreadKey(uid: $0, conversationId: "group_g1") },
            fromCursor: from,
            cursor: to,
            done: to == nil,
            recipients: uids.count,
            leaseUntil: leaseUntil
        )
    }

    /// The dashboard's reads: users found by part of their uid or name (any case, `%` and `_`
    /// taken literally), and delivery counts per hour, per provider, with the top reasons.
    @Test(arguments: TestBackend.available)
    func usersAreFoundAndDeliveriesCounted(_ backend: TestBackend) async throws {
        let f = try await Fixture.make(backend)
        for (uid, name) in [("ana", "Ana Lima"), ("bob", "Bob"), ("carl_1", "Carl"), ("dora", "100% Dora")] {
            _ = try await f.store.upsertUser(appId: f.appId, User(uid: uid, name: name, createdAt: f.now, updatedAt: f.now))
        }
        #expect(try await f.store.searchUsers(appId: f.appId, query: "LIMA", limit: 10).map(\.uid) == ["ana"])
        #expect(try await f.store.searchUsers(appId: f.appId, query: "_", limit: 10).map(\.uid) == ["carl_1"])
        #expect(try await f.store.searchUsers(appId: f.appId, query: "%", limit: 10).map(\.uid) == ["dora"])
        #expect(try await f.store.searchUsers(appId: f.appId, query: "", limit: 3).map(\.uid) == ["ana", "bob", "carl_1"])
        #expect(try await f.store.searchUsers(appId: "other", query: "", limit: 10).isEmpty)

        let hour = 3_600.0
        _ = try await f.groupMessage("evt_stats")
        let start = Date(millisecondsSince1970: (f.now.millisecondsSince1970 / 3_600_000) * 3_600_000)
        func delivery(_ uid: String, _ status: DeliveryStatus, provider: String?, reason: String? = nil, at offset: Double) -> Delivery {
            Delivery(
                appId: f.appId,
                subject: .event("evt_stats"),
                uid: uid,
                target: provider == nil ? .none : .token("t-\(uid)-\(offset)"),
                providerId: provider,
                status: status,
                reason: reason,
                createdAt: start.addingTimeInterval(offset)
            )
        }
        let step = FanOutStep(
            appId: f.appId,
            eventId: "evt_stats",
            deliveries: [
                delivery("ana", .delivered, provider: "apns-1", at: 60), delivery("bob", .delivered, provider: "fcm-1", at: 120),
                delivery("carl_1", .failed, provider: "fcm-1", reason: "BadDeviceToken", at: hour + 10),
                delivery("dora", .skipped, provider: nil, reason: "muted", at: hour + 20),
                delivery("eve", .skipped, provider: nil, reason: "muted", at: 2 * hour + 5),
                delivery("old", .delivered, provider: "apns-1", at: -5 * hour),
            ],
            done: true,
            recipients: 6,
            leaseUntil: f.now
        )
        _ = try await f.store.commitFanOut([step], at: f.now)
        let stats = try await f.store.deliveryStats(appId: f.appId, since: start, now: start.addingTimeInterval(2 * hour + 30), bucketSeconds: 3_600)
        #expect(stats.buckets.map(\.start) == [start, start.addingTimeInterval(hour), start.addingTimeInterval(2 * hour)])
        #expect(stats.buckets.map { $0.counts[.delivered] ?? 0 } == [2, 0, 0])
        #expect(stats.buckets.map { $0.counts[.skipped] ?? 0 } == [0, 1, 1])
        #expect(stats.total(.failed) == 1)
        #expect(stats.byProvider["fcm-1"] == [.delivered: 1, .failed: 1])
        #expect(stats.byProvider["apns-1"] == [.delivered: 1])
        #expect(stats.topReasons.first == DeliveryStats.Reason(status: .skipped, reason: "muted", count: 2))
        #expect(stats.topReasons.contains(DeliveryStats.Reason(status: .failed, reason: "BadDeviceToken", count: 1)))
        try await f.store.shutdown()
    }
}
