import Crypto
import Foundation
import HeraldCore
import HeraldModels
import HeraldProviders
import HeraldStorage
import Logging

/// The use cases, wired to their adapters. One per process; shared by the API and the CLI.
public struct HeraldServices: Sendable {
    public let store: SQLStore
    public let apps: AppManagement
    public let directory: Directory
    public let sessions: SessionManagement
    public let providers: ProviderManagement
    public let tokens: TokenRegistry
    public let authenticator: Authenticator
    public let gateway: ProviderGateway
    public let testSends: TestSends
    public let realtime: RealtimeService
    public let engine: DeliveryEngine
    public let intake: EventIntake
    public let preferences: PreferenceManagement
    public let templates: TemplateManagement
    public let feed: FeedManagement
    public let userFeed: UserFeed
    /// Devices' reports of pushes received and opened.
    public let receipts: DeviceReceipts
    public let campaigns: CampaignManagement
    /// The Matrix push gateway and its app id bindings.
    public let matrix: MatrixGateway
    public let matrixAppIds: MatrixAppIds
    let clock: any WallClock
    /// Signs the dashboard's session cookies (derived from the master key, never the key itself).
    let dashboardKey: SymmetricKey

    public init(store: SQLStore, configuration: HeraldConfiguration, clock: any WallClock = SystemWallClock()) throws {
        let hasher = SHA256SecretHasher()
        let key = try SecretKeyLoader.load(environmentValue: configuration.secretKey, dataFolder: configuration.resolvedDataFolder)
        self.store = store
        self.dashboardKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("herald dashboard session v1".utf8), outputByteCount: 32)
        self.apps = AppManagement(apps: store, hasher: hasher, clock: clock)
        self.directory = Directory(users: store, groups: store, hasher: hasher, clock: clock)
        self.sessions = SessionManagement(users: store, sessions: store, hasher: hasher, clock: clock)
        let webhookPolicy = WebhookURLPolicy(resolver: configuration.hostResolver, allowPrivate: configuration.allowPrivateWebhooks)
        self.providers = ProviderManagement(
            providers: store,
            inspector: CryptoCredentialInspector(),
            box: AESGCMSecretBox(key: key),
            webhookPolicy: webhookPolicy,
            clock: clock
        )
        self.tokens = TokenRegistry(apps: store, providers: store, tokens: store, clock: clock)
        self.authenticator = Authenticator(apps: store, sessions: store, hasher: hasher, clock: clock)
        let providers = self.providers
        self.gateway = ProviderGateway(endpoints: configuration.providerEndpoints, webhookPolicy: webhookPolicy, clock: clock) {
            try providers.secret(of: $0)
        }
        self.testSends = TestSends(apps: store, users: store, providers: store, tokens: store, gateway: gateway, clock: clock)
        // Several processes share presence through PostgreSQL; one process keeps it in memory.
        let presence: any PresenceStore = store.isShared ? store : MemoryPresenceStore()
        self.realtime = RealtimeService(
            instance: store.instance,
            store: presence,
            bus: store.messageBus,
            apps: store,
            settings: configuration.realtime,
            clock: clock
        )
        let observer = MetricsObserver()
        // Work is claimed under this process's instance id, which its presence heartbeat keeps alive.
        let claims = ClaimPolicy(owner: store.instance, lease: configuration.engineLease)
        self.engine = DeliveryEngine(
            ports: EnginePorts(
                apps: store,
                groups: store,
                providers: store,
                tokens: store,
                events: store,
                deliveries: store,
                preferences: store,
                templates: store,
                unread: store,
                directory: store,
                presence: realtime,
                realtime: realtime,
                gateway: gateway,
                claims: store,
                windows: store,
                observer: observer,
                feed: store
            ),
            clock: clock,
            claims: claims,
            // A burst is fanned out from memory, not claimed again from the table: by default up to
            // 64 MiB of posts or 102,400 events (~130 MB held). What a process holds no other takes
            // while it lives (processes sharing PostgreSQL each hold what they accepted; a balancer
            // spreads a burst over them); when it dies, a restart (SQLite) or a survivor
            // (PostgreSQL, its heartbeat gone) takes over within seconds.
            handOff: EventHandOff(capacity: configuration.handOffMiB * 1_600, byteCapacity: configuration.handOffMiB << 20)
        )
        self.intake = EventIntake(events: store, observer: observer, clock: clock, handOff: engine.fanOut.handOff, claims: claims)
        self.preferences = PreferenceManagement(apps: store, users: store, preferences: store, clock: clock)
        self.templates = TemplateManagement(apps: store, templates: store, clock: clock)
        let publisher = FeedPublisher(feed: store, directory: store, providers: store, presence: realtime, realtime: realtime, clock: clock)
        self.feed = FeedManagement(feed: store, users: store, publisher: publisher, clock: clock)
        self.userFeed = UserFeed(feed: store, realtime: realtime, clock: clock)
        self.receipts = DeviceReceipts(deliveries: store, feed: userFeed)
        var campaigns = CampaignManagement(feed: store, setup: feed, publisher: publisher, clock: clock)
        campaigns.claims = claims
        campaigns.dispatcher = engine.dispatcher
        self.campaigns = campaigns
        let engine = self.engine
        self.matrix = MatrixGateway(
            matrix: store,
            providers: store,
            intake: intake,
            waiters: engine.fanOut.waiters,
            observer: MatrixMetricsObserver(),
            clock: clock,
            accepted: { await engine.eventsAccepted() }
        )
        self.matrixAppIds = MatrixAppIds(matrix: store, providers: store, clock: clock, gateway: matrix)
        self.clock = clock
    }

    /// Stores posted events (`bytes`: the size of the post) and wakes the fan-out.
    public func acceptEvents(appId: String, body: JSONValue, bytes: Int? = nil) async throws -> [String] {
        let ids = try await intake.accept(appId: appId, body: body, bytes: bytes)
        await engine.eventsAccepted()
        return ids
    }

    /// Logs a session out (its push tokens go with it), tells its devices with a silent push
    /// (Kandy's "gone"), and closes its sockets, wherever they are.
    public func closeSession(appId: String, uid: String, sessionId: String, reason: String) async throws {
        let devices = try await store.tokens(appId: appId, sessionId: sessionId)
        try await sessions.close(appId: appId, uid: uid, sessionId: sessionId)
        try await announceEnd(appId: appId, uid: uid, sessionId: sessionId, reason: reason, devices: devices)
    }

    /// Deletes a user with everything theirs, and tells and closes each of their sessions.
    public func deleteUser(appId: String, uid: String) async throws {
        let live = (try? await store.sessions(appId: appId, uid: uid)) ?? []
        var devices: [String: [PushToken]] = [:]
        for session in live { devices[session.id] = try await store.tokens(appId: appId, sessionId: session.id) }
        try await directory.deleteUser(appId: appId, uid: uid)
        for session in live {
            try await announceEnd(appId: appId, uid: uid, sessionId: session.id, reason: "user deleted", devices: devices[session.id] ?? [])
        }
    }

    /// Logs out the sessions whose time ran out.
    public func expireSessions() async throws {
        for session in try await store.expiredSessions(before: clock.now(), limit: 100) {
            let devices = try await store.tokens(appId: session.appId, sessionId: session.id)
            guard try await store.deleteSession(appId: session.appId, uid: session.uid, sessionId: session.id) else { continue }
            try await announceEnd(appId: session.appId, uid: session.uid, sessionId: session.id, reason: "session expired", devices: devices)
        }
    }

    private func announceEnd(appId: String, uid: String, sessionId: String, reason: String, devices: [PushToken]) async throws {
        if !devices.isEmpty {
            let event = ChatEvent(
                id: Identifier.timeOrdered("evt_"),
                appId: appId,
                clientId: nil,
                receivedAt: clock.now(),
                body: .session(
                    SessionEvent(
                        uid: uid,
                        sessionId: sessionId,
                        reason: reason,
                        devices: devices.map {
                            .init(token: $0.token, providerId: $0.providerId, platform: $0.platform, encryption: $0.encryption?.storedText)
                        }
                    )
                )
            )
            _ = try await store.insertEvents([event], claim: nil)
            engine.fanOut.handOff.notePending()
            await engine.eventsAccepted()
        }
        await realtime.revoke(appId: appId, sessionId: sessionId, reason: reason)
    }

    /// Closes provider connections, then the database.
    public func shutdown() async throws {
        await gateway.shutdown()
        try? await store.retire(instance: store.instance)
        try await store.shutdown()
    }

    /// Opens the database named by the configuration (migrating it) and wires the services.
    public static func open(_ configuration: HeraldConfiguration, logger: Logger) async throws -> HeraldServices {
        let store = try await SQLStore.open(configuration.database, logger: logger)
        do {
            return try HeraldServices(store: store, configuration: configuration)
        } catch {
            try? await store.shutdown()
            throw error
        }
    }
}
