import Foundation
import HeraldModels
import Testing

@testable import HeraldCore

/// What each provider answer makes of a delivery (its update and side effect), and when a retry
/// gives up or expires instead.
@Suite("Send verdicts")
struct SendVerdictTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func delivery(attempts: Int = 0, expiresAt: Date? = nil, target: DeliveryTarget = .token("tok-1")) -> Delivery {
        Delivery(
            id: "dlv_1",
            appId: "app1",
            subject: .event("evt_1"),
            uid: "bo",
            target: target,
            providerId: "apns-1",
            platform: .apnsIOSDevice,
            route: .alert,
            status: .sending,
            attempts: attempts,
            expiresAt: expiresAt,
            createdAt: now
        )
    }

    static func verdict(_ result: PushResult, _ delivery: Delivery = delivery(), random: Double = 0) -> (DeliveryUpdate, SendVerdict.SideEffect?) {
        let (update, effect) = SendVerdict.of(result, for: delivery, retry: RetryPolicy(), at: now, random: random)
        return (update, effect)
    }

    @Test func deliveredCountsTheAttemptAndKeepsTheProvidersId() {
        let (update, effect) = Self.verdict(PushResult(outcome: .delivered, providerStatus: 200, providerMessageId: "apns-1"))
        #expect(
            update == DeliveryUpdate(id: "dlv_1", status: .delivered, attempts: 1, providerStatus: 200, providerMessageId: "apns-1", at: Self.now)
        )
        #expect(effect == nil)
    }

    @Test func retryLaterWaitsTheBackoffAndNeverLessThanRetryAfter() {
        let (update, _) = Self.verdict(PushResult(outcome: .retryLater(after: nil), providerStatus: 503, reason: "ServiceUnavailable"))
        #expect(update.status == .pending && update.attempts == 1 && update.failure == .provider("ServiceUnavailable"))
        #expect(update.nextAttemptAt == Self.now.addingTimeInterval(2), "first retry after the base delay")
        let (asked, _) = Self.verdict(PushResult(outcome: .retryLater(after: .seconds(90)), providerStatus: 429, reason: "TooManyRequests"))
        #expect(asked.nextAttemptAt == Self.now.addingTimeInterval(90))
        #expect(asked.reason == "TooManyRequests")
    }

    @Test func aRetryGivesUpAfterTheLastAttemptAndExpiresWhenItWouldBeLate() {
        let spent = Self.delivery(attempts: RetryPolicy().maxAttempts - 1)
        let (gaveUp, _) = Self.verdict(PushResult(outcome: .retryLater(after: nil), reason: "InternalServerError"), spent)
        #expect(gaveUp.status == .failed && gaveUp.failure == .gaveUp(attempts: 12, .provider("InternalServerError")))
        #expect(gaveUp.reason == "gave up after 12 attempts: InternalServerError")
        let soon = Self.delivery(expiresAt: Self.now.addingTimeInterval(1))
        let (expired, _) = Self.verdict(PushResult(outcome: .retryLater(after: nil), reason: nil), soon)
        #expect(expired.status == .expired && expired.reason == "expired while waiting to retry: retry later")
    }

    @Test func aDeadTokenFailsAndIsPrunedOnce() {
        let since = Self.now.addingTimeInterval(-86_400)
        let (update, effect) = Self.verdict(
            PushResult(outcome: .tokenInvalid(since: since, hint: "the app was removed"), providerStatus: 410, reason: "Unregistered")
        )
        #expect(update.status == .failed && update.reason == "token_invalid: Unregistered (the app was removed)")
        #expect(effect == .pruneToken("tok-1", reason: "Unregistered", hint: "the app was removed", invalidSince: since))
        let (webhook, none) = Self.verdict(
            PushResult(outcome: .tokenInvalid(since: nil, hint: nil)),
            Self.delivery(target: .webhook(providerId: "hook"))
        )
        #expect(webhook.reason == "token_invalid: invalid" && none == nil, "a webhook has no token to prune")
    }

    @Test func aRefusedCredentialIsSetAsideAndOtherRefusalsJustFail() {
        let (update, effect) = Self.verdict(PushResult(outcome: .credentialBroken, providerStatus: 403, reason: "InvalidProviderToken"))
        #expect(update.status == .failed && update.failure == .credentialBroken("InvalidProviderToken"))
        #expect(effect == .setCredentialAside(reason: "InvalidProviderToken"))
        let (failed, nothing) = Self.verdict(PushResult(outcome: .failed, providerStatus: 400, reason: "BadTopic"))
        #expect(failed.status == .failed && failed.reason == "BadTopic" && failed.providerStatus == 400 && nothing == nil)
    }

    @Test func pushesPastTheirTimeAreNotSent() {
        let late = PreparedPush(delivery: Self.delivery(expiresAt: Self.now), push: .hms(HMSPush(token: "t")))
        let due = PreparedPush(delivery: Self.delivery(expiresAt: Self.now.addingTimeInterval(1)), push: .hms(HMSPush(token: "t")))
        let (sendable, expired) = Dispatcher.splitExpired([late, due], at: Self.now)
        #expect(sendable.count == 1 && expired.map(\.status) == [.expired] && expired[0].reason == "expired before it could be delivered")
        let (all, none) = Dispatcher.splitExpired([due, due], at: Self.now)
        #expect(all.count == 2 && none.isEmpty)
    }

    @Test func pushesGoOutByTheCredentialThatSendsThem() {
        func push(_ appId: String, _ providerId: String?, _ token: String) -> PreparedPush {
            var delivery = Self.delivery(target: .token(token))
            delivery.appId = appId
            delivery.providerId = providerId
            return PreparedPush(delivery: delivery, push: .hms(HMSPush(token: token)))
        }
        let one = Dispatcher.byCredential([push("a", "p", "t1"), push("a", "p", "t2")])
        #expect(one.count == 1 && one[.init(appId: "a", providerId: "p")]?.map(\.delivery.target) == [.token("t1"), .token("t2")])
        let mixed = Dispatcher.byCredential([push("a", "p", "t1"), push("b", "p", "t2"), push("a", nil, "t3"), push("a", "p", "t4")])
        #expect(mixed.count == 3)
        #expect(mixed[.init(appId: "a", providerId: "p")]?.map(\.delivery.target) == [.token("t1"), .token("t4")])
        #expect(mixed[.init(appId: "b", providerId: "p")]?.map(\.delivery.target) == [.token("t2")])
        #expect(mixed[.init(appId: "a", providerId: nil)]?.map(\.delivery.target) == [.token("t3")])
        #expect(Dispatcher.byCredential([]).isEmpty)
    }
}
