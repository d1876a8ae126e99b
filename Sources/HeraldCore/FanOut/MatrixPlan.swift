import Foundation
import HeraldModels

/// The delivery of one Matrix notify to one device: a push through the provider the app id is
/// bound to, shaped as Sygnal shapes it (``MatrixPayloads``); skipped when the app's pushes are
/// off or the notify leaves nothing to send (an empty badge-only notify to FCM). Pure.
struct MatrixPlan: Sendable {
    var delivery: Delivery
    var push: PreparedPush?

    /// How long a notify's push is worth sending: Sygnal sets no expiry; a day keeps retries bounded.
    static let lifetime: TimeInterval = 86_400

    static func make(_ matrix: MatrixPush, event: ResolvedEvent, snapshot: AppSnapshot, now: Date, texts: inout TextCache) -> MatrixPlan {
        var delivery = Delivery(
            appId: event.event.appId,
            subject: .event(event.event.id),
            uid: matrix.uid,
            target: .token(matrix.pushkey),
            providerId: matrix.binding.providerId,
            platform: matrix.platform,
            route: .alert,
            status: .sending,
            expiresAt: now.addingTimeInterval(lifetime),
            createdAt: now
        )
        guard snapshot.settings.enabled else {
            delivery.status = .skipped
            delivery.reason = SkipReason.pushDisabled.rawValue
            return MatrixPlan(delivery: delivery)
        }
        let credential: ProviderCredential
        switch snapshot.usableCredential(matrix.binding.providerId) {
        case .success(let usable): credential = usable
        case .failure(let reason):
            delivery.status = .failed
            delivery.reason = reason.description
            return MatrixPlan(delivery: delivery)
        }
        switch PushBuilder.push(for: delivery, of: event, snapshot: snapshot, settings: credential.config.settings, texts: &texts, now: now) {
        case .success(let push):
            return MatrixPlan(delivery: delivery, push: PreparedPush(delivery: delivery, push: push))
        case .failure(let reason):
            if case .unsendable("nothing to send") = reason {
                delivery.status = .skipped
                delivery.reason = SkipReason.nothingToSend.rawValue
            } else {
                delivery.status = .failed
                delivery.reason = reason.description
            }
            return MatrixPlan(delivery: delivery)
        }
    }
}
