import Crypto
import Foundation
import HeraldModels
import Synchronization

/// The Matrix Push Gateway API's notify: each device's push goes through the engine as an event
/// of its own (stored before the answer, sent through the outbox with its retries, in the
/// delivery log), all devices of a notify at once. A homeserver's retry of the same event to the
/// same pushkey is the same event (its client id), so it alerts once. The answer's `rejected`
/// lists pushkeys the provider declared dead now, or earlier (remembered), and those of app ids
/// no app has bound — the homeserver then deletes those pushers.
public struct MatrixGateway: Sendable {
    let matrix: any MatrixRepository
    let providers: any ProviderRepository
    let intake: EventIntake
    let waiters: EventWaiters
    let observer: any MatrixObserver
    let clock: any WallClock
    let bindings: BindingCache
    /// Wakes the fan-out once events are stored.
    let accepted: @Sendable () async -> Void
    /// How long a notify waits for its pushes' answers before answering without them.
    public var answerWithin: Duration

    public init(
        matrix: any MatrixRepository,
        providers: any ProviderRepository,
        intake: EventIntake,
        waiters: EventWaiters,
        observer: any MatrixObserver = SilentMatrixObserver(),
        clock: any WallClock = SystemWallClock(),
        answerWithin: Duration = .seconds(10),
        accepted: @escaping @Sendable () async -> Void = {}
    ) {
        self.accepted = accepted
        self.matrix = matrix
        self.providers = providers
        self.intake = intake
        self.waiters = waiters
        self.observer = observer
        self.clock = clock
        self.bindings = BindingCache(matrix: matrix)
        self.answerWithin = answerWithin
    }

    /// The gateway serves only once an app has bound a Matrix app id (it takes no credentials).
    public func isOn() async throws -> Bool {
        !(try await bindings.current()).isEmpty
    }

    /// Handles a notify; the pushkeys to reject.
    public func notify(_ notification: MatrixNotification) async throws -> [String] {
        let started = ContinuousClock.now
        observer.notifyReceived(devices: notification.devices.count)
        let now = clock.now().asStored
        let all = try await bindings.current()
        var rejected: [String] = []
        var accepted: [(device: MatrixDevice, binding: MatrixAppBinding)] = []
        for device in notification.devices {
            guard let binding = MatrixAppBinding.match(device.appId, in: all) else {
                observer.device(appId: device.appId, outcome: "unknown_app")
                rejected.append(device.pushkey)
                continue
            }
            accepted.append((device, binding))
        }
        let dead = try await matrix.rejectedPushkeys(accepted.map { ($0.device.appId, $0.device.pushkey) })
        accepted.removeAll { entry in
            guard dead.contains(entry.device.appId + "\u{0}" + entry.device.pushkey) else { return false }
            observer.device(appId: entry.device.appId, outcome: "rejected")
            rejected.append(entry.device.pushkey)
            return true
        }
        var events: [ChatEvent] = []
        var devices: [String: MatrixDevice] = [:]
        // Each binding's provider, read once per notify.
        var kinds: [String: ProviderCredential?] = [:]
        for (device, binding) in accepted {
            let key = binding.appId + "\u{0}" + binding.providerId
            if kinds[key] == nil { kinds[key] = .some(try await providers.provider(appId: binding.appId, providerId: binding.providerId)) }
            guard let provider = kinds[key] ?? nil else {
                // The binding's provider is gone: an operator's mistake, not a dead pushkey (no rejection).
                observer.device(appId: device.appId, outcome: "no_provider")
                continue
            }
            if provider.kind == .webpush && !device.pushkey.hasPrefix("https://") {
                // A Web Push pusher without its endpoint and keys can never be pushed to (Sygnal rejects it).
                guard let subscription = MatrixPayloads.webPushSubscription(device) else {
                    observer.device(appId: device.appId, outcome: "rejected")
                    rejected.append(device.pushkey)
                    continue
                }
                // Sygnal's allowed_endpoints: a subscription elsewhere is dropped (not rejected).
                if let allowed = binding.allowedEndpoints, !allowed.isEmpty, !Self.endpointAllowed(subscription.endpoint, allowed) {
                    observer.device(appId: device.appId, outcome: "endpoint_not_allowed")
                    continue
                }
            }
            let event = ChatEvent(
                id: Identifier.timeOrdered("evt_"),
                appId: binding.appId,
                clientId: Self.clientId(notification, device),
                receivedAt: now,
                body: .matrix(
                    MatrixPush(notification: notification, device: device, binding: binding, platform: Self.platform(provider.kind, binding, device))
                )
            )
            events.append(event)
            devices[event.id] = device
        }
        var waited: [String] = []
        for (_, batch) in Dictionary(grouping: events, by: \.appId) {
            waiters.register(batch.map(\.id))
            let ids = try await accept(batch)
            let duplicates = zip(batch, ids).filter { $0.0.id != $0.1 }.map(\.0.id)
            waiters.cancel(duplicates)
            for id in duplicates { observer.device(appId: devices[id]?.appId ?? "", outcome: "duplicate") }
            waited += batch.map(\.id).filter { !duplicates.contains($0) }
        }
        if !waited.isEmpty { await self.accepted() }
        let outcomes = waited.isEmpty ? [:] : await waiters.wait(for: waited, timeout: answerWithin)
        var dying: [(matrixAppId: String, pushkey: String, reason: String)] = []
        for (id, deliveries) in outcomes {
            guard let device = devices[id] else { continue }
            for delivery in deliveries {
                observer.device(appId: device.appId, outcome: delivery.status.rawValue)
                if delivery.status == .failed, delivery.reason?.hasPrefix("token_invalid") == true {
                    rejected.append(device.pushkey)
                    dying.append((device.appId, device.pushkey, delivery.reason ?? ""))
                }
            }
        }
        try await matrix.rejectPushkeys(dying, at: clock.now())
        observer.notifyAnswered(after: ContinuousClock.now - started, rejected: rejected.count)
        var seen = Set<String>()
        return rejected.filter { seen.insert($0).inserted }
    }

    /// Stores one app's events; a client id posted before with another body (a homeserver's
    /// notify for the same event and pushkey, changed) counts as the same event.
    private func accept(_ batch: [ChatEvent]) async throws -> [String] {
        do {
            return try await intake.accept(batch)
        } catch let error as HeraldError where error.code == "event_id_conflict" {
            var ids: [String] = []
            for event in batch {
                do {
                    ids += try await intake.accept([event])
                } catch let error as HeraldError where error.code == "event_id_conflict" {
                    ids.append(error.details["eventId"] ?? "")
                }
            }
            return ids
        }
    }

    /// Whether a Web Push endpoint's host matches one of the binding's globs.
    static func endpointAllowed(_ endpoint: String, _ allowed: [String]) -> Bool {
        guard let url = URLComponents(string: endpoint), let host = url.host?.lowercased() else { return false }
        let netloc = url.port.map { "\(host):\($0)" } ?? host
        return allowed.contains { Glob.matches($0.lowercased(), netloc) }
    }

    /// The client id that makes a retry of a notify the same event: the Matrix event, the app
    /// id and the pushkey, hashed (badge-only notifies, with no event, are never the same).
    static func clientId(_ notification: MatrixNotification, _ device: MatrixDevice) -> String? {
        guard let eventId = notification.eventId else { return nil }
        let digest = SHA256.hash(data: Data((eventId + "\u{0}" + device.appId + "\u{0}" + device.pushkey).utf8))
        return "matrix:" + digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The platform a pushkey is for, from its provider's kind: APNs device (VoIP when the
    /// binding's push type is `voip`), FCM Android, a Web Push subscription, or a UnifiedPush
    /// endpoint (a pushkey that is a URL).
    static func platform(_ kind: ProviderKind, _ binding: MatrixAppBinding, _ device: MatrixDevice) -> PushPlatform {
        switch kind {
        case .apns: binding.apnsPushType == "voip" ? .apnsIOSVoIP : .apnsIOSDevice
        case .fcm: .fcmAndroid
        case .hms: .hmsAndroid
        case .webpush: device.pushkey.hasPrefix("https://") ? .unifiedPush : .webPush
        case .custom: .fcmAndroid
        }
    }
}

/// The bindings, read again at most once a second (a notify reads them for every device).
final class BindingCache: Sendable {
    private let matrix: any MatrixRepository
    private let cached = Mutex<(bindings: [MatrixAppBinding], at: ContinuousClock.Instant)?>(nil)

    init(matrix: any MatrixRepository) {
        self.matrix = matrix
    }

    func current() async throws -> [MatrixAppBinding] {
        let now = ContinuousClock.now
        if let cached = cached.withLock({ $0 }), now - cached.at < .seconds(1) { return cached.bindings }
        let bindings = try await matrix.matrixAppIds(appId: nil)
        cached.withLock { $0 = (bindings, now) }
        return bindings
    }

    /// A change made here is seen by the next notify at once.
    func invalidate() {
        cached.withLock { $0 = nil }
    }
}
