import Foundation
import HeraldModels

/// The push that carries one delivery of an event, from the delivery's own facts (its target,
/// platform, route, locale, badge and unread count): the same whether the delivery was just
/// decided or is tried again after a restart. Pure.
enum PushBuilder {
    static func push(
        for delivery: Delivery,
        of event: ResolvedEvent,
        snapshot: AppSnapshot,
        settings provider: ProviderSettings,
        texts: inout TextCache,
        now: Date
    ) -> Result<OutgoingPush, FailureReason> {
        if case .session(let session) = event.event.body {
            guard let token = delivery.target.token, let platform = delivery.platform,
                let push = PushPayloads.sessionEnded(
                    session,
                    device: .init(token: token, providerId: delivery.providerId ?? "", platform: platform),
                    expiresAt: delivery.expiresAt,
                    keys: delivery.style.sealedTo
                )
            else { return .failure(.unsendable("no silent push for this token")) }
            return .success(push)
        }
        if case .matrix(let matrix) = event.event.body {
            guard matrix.platform.tokenKind.providerKind == provider.kind else {
                return .failure(.unsendable("provider \(delivery.providerId ?? "") is \(provider.kind.rawValue), not \(matrix.platform.rawValue)"))
            }
            return MatrixPayloads.push(matrix, now: now).map { .success($0) } ?? .failure(.unsendable("nothing to send"))
        }
        switch delivery.style.kind {
        case .clear, .retract:
            if case .token(let token) = delivery.target, let platform = delivery.platform, platform.tokenKind.providerKind != provider.kind {
                return .failure(.unsendable("provider \(delivery.providerId ?? "") is \(provider.kind.rawValue), not for \(token.prefix(8))…"))
            }
            let push = PushPayloads.notice(
                delivery.style.kind,
                of: event,
                target: delivery.target,
                uid: delivery.uid,
                platform: delivery.platform,
                badge: delivery.badge,
                expiresAt: delivery.expiresAt,
                now: now,
                keys: delivery.style.sealedTo
            )
            return push.map { .success($0) } ?? .failure(.unsendable("no \(delivery.style.kind.rawValue) push for this target"))
        case .notification, .summary:
            break
        }
        let text =
            delivery.style.kind == .summary
            ? BurstSummary.text(event, count: delivery.style.count ?? 2, locale: delivery.locale)
            : texts.text(event, locale: delivery.locale, snapshot: snapshot)
        let context = PushContext(
            event: event,
            text: text,
            settings: snapshot.settings,
            badge: delivery.badge,
            unread: delivery.unread,
            expiresAt: delivery.expiresAt,
            now: now,
            style: delivery.style
        )
        switch delivery.target {
        case .webhook:
            return .success(PushPayloads.webhook(context, uid: delivery.uid))
        case .token(let token):
            guard let platform = delivery.platform else { return .failure(.unsendable("the delivery has no platform")) }
            let needed = platform.tokenKind.providerKind
            guard needed == provider.kind else {
                return .failure(.unsendable("provider \(delivery.providerId ?? "") is \(provider.kind.rawValue), not \(needed.rawValue)"))
            }
            return .success(PushPayloads.push(context, token: token, platform: platform, route: delivery.route ?? .alert, provider: provider))
        case .inApp, .none:
            return .failure(.unsendable("not a push"))
        }
    }

    /// A campaign's push of a feed item to one token.
    static func push(for delivery: Delivery, of item: FeedItem) -> Result<OutgoingPush, FailureReason> {
        guard let token = delivery.target.token, let platform = delivery.platform else { return .failure(.unsendable("not a push")) }
        return .success(PushPayloads.campaign(item, token: token, platform: platform, badge: delivery.badge, keys: delivery.style.sealedTo))
    }
}
