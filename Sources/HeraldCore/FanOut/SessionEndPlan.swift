import Foundation
import HeraldModels

/// The deliveries of a session's end: Kandy's silent notification to each device the session
/// had (VoIP tokens excluded: iOS would expect a call; browsers too: they must show every push),
/// or one skipped row when the app's pushes are off. Pure.
struct SessionEndPlan: Sendable {
    var deliveries: [Delivery] = []
    var pushes: [PreparedPush] = []

    /// A session's devices are told for an hour; after that a new sign-in makes it moot.
    static let lifetime: TimeInterval = 3_600

    static func make(_ session: SessionEvent, event: ResolvedEvent, snapshot: AppSnapshot, now: Date, texts: inout TextCache) -> SessionEndPlan {
        let chat = event.event
        guard snapshot.settings.enabled else {
            return SessionEndPlan(deliveries: [
                Delivery(
                    appId: chat.appId,
                    subject: .event(chat.id),
                    uid: session.uid,
                    target: .none,
                    status: .skipped,
                    reason: SkipReason.pushDisabled.rawValue,
                    createdAt: now
                )
            ])
        }
        var plan = SessionEndPlan()
        for device in session.devices where device.platform.tokenKind != .apnsVoIP && !device.platform.isBrowser {
            var delivery = Delivery(
                appId: chat.appId,
                subject: .event(chat.id),
                uid: session.uid,
                target: .token(device.token),
                sessionId: session.sessionId,
                providerId: device.providerId,
                platform: device.platform,
                route: .background,
                status: .sending,
                expiresAt: now.addingTimeInterval(lifetime),
                createdAt: now
            )
            delivery.style.sealedTo = PushEncryptionKeys(storedText: device.encryption)
            let push = snapshot.usableSettings(device.providerId).flatMap { settings in
                PushBuilder.push(for: delivery, of: event, snapshot: snapshot, settings: settings, texts: &texts, now: now)
            }
            switch push {
            case .success(let push): plan.pushes.append(PreparedPush(delivery: delivery, push: push))
            case .failure(let reason):
                delivery.status = .failed
                delivery.reason = reason.description
            }
            plan.deliveries.append(delivery)
        }
        return plan
    }
}
