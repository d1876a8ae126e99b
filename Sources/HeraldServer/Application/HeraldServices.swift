import HeraldCore
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

    public init(store: SQLStore, configuration: HeraldConfiguration, clock: any WallClock = SystemWallClock()) throws {
        let hasher = SHA256SecretHasher()
        let key = try SecretKeyLoader.load(environmentValue: configuration.secretKey, dataFolder: configuration.resolvedDataFolder)
        self.store = store
        self.apps = AppManagement(apps: store, hasher: hasher, clock: clock)
        self.directory = Directory(users: store, groups: store, hasher: hasher, clock: clock)
        self.sessions = SessionManagement(users: store, sessions: store, hasher: hasher, clock: clock)
        self.providers = ProviderManagement(
            providers: store, inspector: CryptoCredentialInspector(), box: AESGCMSecretBox(key: key),
            webhookPolicy: WebhookURLPolicy(resolver: SystemHostResolver(), allowPrivate: configuration.allowPrivateWebhooks),
            clock: clock
        )
        self.tokens = TokenRegistry(apps: store, providers: store, tokens: store, clock: clock)
        self.authenticator = Authenticator(apps: store, sessions: store, hasher: hasher, clock: clock)
        let providers = self.providers
        self.gateway = ProviderGateway(endpoints: configuration.providerEndpoints, clock: clock) { try providers.secret(of: $0) }
        self.testSends = TestSends(apps: store, users: store, providers: store, tokens: store, gateway: gateway, clock: clock)
        // Several processes share presence through PostgreSQL; one process keeps it in memory.
        let presence: any PresenceStore = store.isShared ? store : MemoryPresenceStore()
        self.realtime = RealtimeService(store: presence, bus: store.messageBus, apps: store, settings: configuration.realtime, clock: clock)
    }

    /// Logs a session out (its push tokens go with it) and closes its sockets, wherever they are.
    public func closeSession(appId: String, uid: String, sessionId: String, reason: String) async throws {
        try await sessions.close(appId: appId, uid: uid, sessionId: sessionId)
        await realtime.revoke(appId: appId, sessionId: sessionId, reason: reason)
    }

    /// Deletes a user with everything theirs, and closes their sockets.
    public func deleteUser(appId: String, uid: String) async throws {
        let live = (try? await store.sessions(appId: appId, uid: uid)) ?? []
        try await directory.deleteUser(appId: appId, uid: uid)
        for session in live { await realtime.revoke(appId: appId, sessionId: session.id, reason: "user deleted") }
    }

    /// Closes provider connections, then the database.
    public func shutdown() async throws {
        await gateway.shutdown()
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
