import Foundation

/// What a provider's answer means for one delivery: its update, and what else must happen (a
/// dead token removed, a refused credential set aside). Pure: the dispatcher carries out the
/// side effects.
enum SendVerdict {
    enum SideEffect: Sendable, Equatable {
        /// The token will never work again.
        case pruneToken(String, reason: String, hint: String?, invalidSince: Date?)
        /// The provider refused the credential itself.
        case setCredentialAside(reason: String)
    }

    static func of(
        _ result: PushResult,
        for delivery: Delivery,
        retry: RetryPolicy,
        at now: Date,
        random: Double? = nil
    ) -> (update: DeliveryUpdate, effect: SideEffect?) {
        // The count alone: the delivery is copied only for a retry, which needs all of it.
        let attempts = delivery.attempts + 1
        let status = result.providerStatus
        func ended(_ status: DeliveryStatus, _ failure: FailureReason) -> DeliveryUpdate {
            DeliveryUpdate(
                id: delivery.id,
                status: status,
                failure: failure,
                attempts: attempts,
                providerStatus: result.providerStatus,
                at: now
            )
        }
        switch result.outcome {
        case .delivered:
            let update = DeliveryUpdate(
                id: delivery.id,
                status: .delivered,
                attempts: attempts,
                providerStatus: status,
                providerMessageId: result.providerMessageId,
                at: now
            )
            return (update, nil)
        case .retryLater(let after):
            var attempted = delivery
            attempted.attempts = attempts
            let update = retryOrGiveUp(
                attempted,
                .provider(result.reason ?? "retry later"),
                retryAfter: after,
                providerStatus: status,
                retry: retry,
                at: now,
                // Drawn only for a retry: a delivered push asks the system's generator for nothing.
                random: random ?? .random(in: -1...1)
            )
            return (update, nil)
        case .tokenInvalid(let since, let hint):
            let reason = result.reason ?? "invalid"
            let effect = delivery.target.token.map { SideEffect.pruneToken($0, reason: reason, hint: hint, invalidSince: since) }
            return (ended(.failed, .tokenInvalid(reason, hint: hint)), effect)
        case .credentialBroken:
            return (
                ended(.failed, .credentialBroken(result.reason ?? "")),
                .setCredentialAside(reason: result.reason ?? "the provider refused the credential")
            )
        case .failed:
            return (ended(.failed, .provider(result.reason ?? "failed")), nil)
        }
    }

    /// Another attempt later, with backoff and never before the provider's Retry-After; or the
    /// end, when attempts ran out or the next one would come after the delivery expires.
    static func retryOrGiveUp(
        _ delivery: Delivery,
        _ reason: FailureReason,
        retryAfter: Duration?,
        providerStatus: Int? = nil,
        retry: RetryPolicy,
        at now: Date,
        random: Double = .random(in: -1...1)
    ) -> DeliveryUpdate {
        guard delivery.attempts < retry.maxAttempts else {
            return DeliveryUpdate(
                id: delivery.id,
                status: .failed,
                failure: .gaveUp(attempts: delivery.attempts, reason),
                attempts: delivery.attempts,
                providerStatus: providerStatus,
                at: now
            )
        }
        let next = now.addingTimeInterval(retry.delay(afterAttempts: max(1, delivery.attempts), retryAfter: retryAfter, random: random))
        if let expiresAt = delivery.expiresAt, next >= expiresAt {
            return DeliveryUpdate(
                id: delivery.id,
                status: .expired,
                failure: .expiredWhileWaiting(reason),
                attempts: delivery.attempts,
                providerStatus: providerStatus,
                at: now
            )
        }
        return DeliveryUpdate(
            id: delivery.id,
            status: .pending,
            failure: reason,
            attempts: delivery.attempts,
            nextAttemptAt: next,
            providerStatus: providerStatus,
            at: now
        )
    }
}
