import Foundation
import HeraldCore
import HeraldModels
import Logging
import Metrics
import NIOConcurrencyHelpers

/// Presence and in-app delivery, for one process or many. Sockets are held by this process's
/// ``RealtimeHub``; presence is written to a ``PresenceStore`` (memory for SQLite, the database
/// for PostgreSQL), and envelopes for sessions connected to another process travel over the
/// ``MessageBus`` (`LISTEN/NOTIFY`) to that process's channel.
public final class RealtimeService: PresenceView, RealtimeDelivery {
    public let instance: String
    public let settings: RealtimeSettings
    let hub = RealtimeHub()
    let store: any PresenceStore
    let bus: (any MessageBus)?
    let apps: any AppRepository
    let clock: any WallClock
    let logger: Logger
    private let heartbeated = NIOLockedValueBox(false)

    static let broadcastChannel = "herald_rt_all"
    var channel: String { "herald_rt_" + instance }

    /// - Parameter instance: this process's id among those sharing the database (its presence
    ///   rows and its claims on work carry it).
    public init(
        instance: String = "h" + Identifier.hex(bytes: 6),
        store: any PresenceStore,
        bus: (any MessageBus)?,
        apps: any AppRepository,
        settings: RealtimeSettings = .init(),
        clock: any WallClock = SystemWallClock(),
        logger: Logger = Logger(label: "herald.realtime")
    ) {
        self.instance = instance
        self.store = store
        self.bus = bus
        self.apps = apps
        self.settings = settings
        self.clock = clock
        self.logger = logger
    }

    /// Open sockets on this process.
    public var connectionCount: Int { hub.count }

    // MARK: Connections

    func connected(_ connection: RealtimeConnection) async {
        await ensureHeartbeat()
        guard hub.add(connection) else { return }
        Gauge(label: "herald_websockets_open").record(hub.count)
        do {
            try await store.markOnline(
                PresenceRecord(
                    appId: connection.appId,
                    uid: connection.uid,
                    sessionId: connection.sessionId,
                    instance: instance,
                    since: clock.now()
                )
            )
        } catch {
            logger.warning("presence not recorded", metadata: ["error": .error(error)])
        }
    }

    func disconnected(_ connection: RealtimeConnection) async {
        guard hub.remove(connection) else { return }
        Gauge(label: "herald_websockets_open").record(hub.count)
        do {
            try await store.markOffline(appId: connection.appId, sessionId: connection.sessionId, instance: instance, at: clock.now())
        } catch {
            logger.warning("presence not recorded", metadata: ["error": .error(error)])
        }
    }

    /// The session was logged out, revoked or deleted: tell its sockets, here and on every other
    /// process, and close them.
    public func revoke(appId: String, sessionId: String, reason: String) async {
        let text = (try? RealtimeEnvelope.sessionRevoked(reason: reason).jsonText()) ?? #"{"type":"session_revoked"}"#
        hub.close(appId: appId, sessionId: sessionId, reason: reason, last: text)
        await publish(.revoke(appId: appId, sessionId: sessionId, reason: reason, text: text), channel: Self.broadcastChannel)
    }

    // MARK: PresenceView

    public func onlineSessions(appId: String, uids: [String]) async throws -> [String: [PresenceRecord]] {
        let grace = TimeInterval(try await apps.app(id: appId)?.settings.onlineGraceSeconds ?? PushSettings().onlineGraceSeconds)
        let now = clock.now()
        let records = try await store.presence(appId: appId, uids: uids, liveSince: liveSince(now))
        return Dictionary(grouping: records.filter { $0.isOnline(at: now, grace: grace) }, by: \.uid)
    }

    /// Every presence row of a user (admin view).
    public func presence(appId: String, uid: String) async throws -> [PresenceRecord] {
        try await onlineSessions(appId: appId, uids: [uid])[uid] ?? []
    }

    // MARK: RealtimeDelivery

    public func deliver(_ envelope: RealtimeEnvelope, appId: String, sessionIds: [String]) async -> Set<String> {
        guard !sessionIds.isEmpty, let text = try? envelope.jsonText() else { return [] }
        let reached = hub.send(text, appId: appId, sessionIds: sessionIds)
        let elsewhere = sessionIds.filter { !reached.contains($0) }
        guard !elsewhere.isEmpty, bus != nil else { return reached }
        let records = (try? await store.presence(appId: appId, sessionIds: elsewhere, liveSince: liveSince(clock.now()))) ?? []
        return reached.union(await forward(text, appId: appId, records: records))
    }

    public func deliver(_ envelope: RealtimeEnvelope, appId: String, uids: [String]) async -> Set<String> {
        guard !uids.isEmpty, let text = try? envelope.jsonText() else { return [] }
        guard let records = try? await store.presence(appId: appId, uids: uids, liveSince: liveSince(clock.now())) else { return [] }
        let local = records.filter { $0.instance == instance && $0.isConnected }.map(\.sessionId)
        let reached = hub.send(text, appId: appId, sessionIds: local)
        return reached.union(await forward(text, appId: appId, records: records))
    }

    /// Hands `text` to the processes holding these sessions' other sockets.
    private func forward(_ text: String, appId: String, records: [PresenceRecord]) async -> Set<String> {
        let remote = Dictionary(grouping: records.filter { $0.instance != instance && $0.isConnected }, by: \.instance)
        var reached = Set<String>()
        for (target, sessions) in remote {
            let ids = Array(Set(sessions.map(\.sessionId)))
            if await publish(.deliver(appId: appId, sessionIds: ids, text: text), channel: "herald_rt_" + target) {
                reached.formUnion(ids)
            }
        }
        return reached
    }

    // MARK: Between processes

    enum BusMessage: Codable {
        case deliver(appId: String, sessionIds: [String], text: String)
        case revoke(appId: String, sessionId: String, reason: String, text: String)
    }

    @discardableResult
    private func publish(_ message: BusMessage, channel: String) async -> Bool {
        guard let bus else { return false }
        do {
            let payload = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
            try await bus.publish(payload, channel: channel)
            return true
        } catch {
            logger.warning("realtime message not published", metadata: ["channel": "\(channel)", "error": .error(error)])
            return false
        }
    }

    func received(_ payload: String) async {
        guard let message = try? JSONDecoder().decode(BusMessage.self, from: Data(payload.utf8)) else { return }
        switch message {
        case .deliver(let appId, let sessionIds, let text):
            _ = hub.send(text, appId: appId, sessionIds: sessionIds)
        case .revoke(let appId, let sessionId, let reason, let text):
            hub.close(appId: appId, sessionId: sessionId, reason: reason, last: text)
        }
    }

    // MARK: Liveness

    private func liveSince(_ now: Date) -> Date {
        now.addingTimeInterval(-settings.instanceTimeout.seconds)
    }

    private func ensureHeartbeat() async {
        guard !heartbeated.withLockedValue({ $0 }) else { return }
        try? await store.heartbeat(instance: instance, at: clock.now())
        heartbeated.withLockedValue { $0 = true }
    }

    /// Closes the sockets of sessions that expired, after telling them why.
    func closeExpired(now: Date) {
        let last = try? RealtimeEnvelope.sessionRevoked(reason: "session expired").jsonText()
        for connection in hub.expired(now: now) {
            connection.close(code: 4001, reason: "session expired", last: last)
        }
    }

    /// Heartbeats, purges stale presence, closes expired sessions' sockets and listens to the bus
    /// until cancelled.
    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                while !Task.isCancelled {
                    closeExpired(now: clock.now())
                    try? await Task.sleep(for: settings.expirySweepInterval)
                }
            }
            group.addTask { [self] in
                var purged = ContinuousClock.now
                while !Task.isCancelled {
                    do {
                        try await store.heartbeat(instance: instance, at: clock.now())
                        heartbeated.withLockedValue { $0 = true }
                        if ContinuousClock.now - purged > .seconds(60) {
                            purged = .now
                            let now = clock.now()
                            try await store.purgePresence(
                                offlineBefore: now.addingTimeInterval(-Double(PushSettings.onlineGraceRange.upperBound) - 60),
                                deadBefore: now.addingTimeInterval(-settings.instanceTimeout.seconds - 60)
                            )
                        }
                    } catch {
                        logger.warning("presence heartbeat failed", metadata: ["error": .error(error)])
                    }
                    try? await Task.sleep(for: settings.heartbeatInterval)
                }
            }
            if let bus {
                for channel in [self.channel, Self.broadcastChannel] {
                    group.addTask { [self] in
                        while !Task.isCancelled {
                            do {
                                try await bus.listen(channel: channel) { payload in await self.received(payload) }
                            } catch {
                                logger.warning(
                                    "realtime listener stopped; listening again",
                                    metadata: ["channel": "\(channel)", "error": .error(error)]
                                )
                            }
                            try? await Task.sleep(for: .seconds(1))
                        }
                    }
                }
            }
        }
    }
}
