import Foundation
import Testing

@testable import HeraldCore

/// The credentials every recipient's decision may use, worked out once per app snapshot.
@Suite("Usable providers")
struct UsableProvidersTests {
    @Test func onlyEnabledUnbrokenCredentialsCarryPushesAndWebhooksAreTheCustomOnes() {
        var providers = DecisionTests.providers(broken: ["fcm-1"], webhook: true)
        providers["hook-0"] = ProviderCredential(
            appId: DecisionTests.app.id,
            providerId: "hook-0",
            config: ProviderConfig(.sample(.custom), enabled: false),
            sealedSecret: "",
            createdAt: DecisionTests.now,
            updatedAt: DecisionTests.now
        )
        providers["hook-2"] = ProviderCredential(
            appId: DecisionTests.app.id,
            providerId: "hook-2",
            config: ProviderConfig(.sample(.custom)),
            sealedSecret: "",
            createdAt: DecisionTests.now,
            updatedAt: DecisionTests.now
        )
        let usable = UsableProviders(providers)
        #expect(usable.ids == ["apns-1", "hook-1", "hook-2"])
        #expect(usable.webhooks == ["hook-1", "hook-2"])
    }

    @Test func aSnapshotsUsableProvidersAreThoseOfItsCredentials() {
        let snapshot = AppSnapshot(app: DecisionTests.app, providers: DecisionTests.providers(webhook: true), templates: [])
        #expect(snapshot.usable == UsableProviders(DecisionTests.providers(webhook: true)))
        #expect(snapshot.usable.webhooks == ["hook-1"])
        var providers = DecisionTests.providers(webhook: true)
        providers["hook-1"]?.config.enabled = false
        let disabled = AppSnapshot(app: DecisionTests.app, providers: providers, templates: [])
        #expect(disabled.usable.ids == ["apns-1", "fcm-1"])
        #expect(disabled.usable.webhooks.isEmpty)
        let without = AppSnapshot(app: DecisionTests.app, providers: DecisionTests.providers(disabled: ["apns-1"]), templates: [])
        #expect(without.usable.ids == ["fcm-1"])
    }

    @Test func theDecisionIsTheSameWithTheUsableProvidersWorkedOutBefore() throws {
        let event = try DecisionTests.event(DecisionTests.message)
        let facts = RecipientFacts(
            uid: "bo",
            user: DecisionTests.user(),
            tokens: [DecisionTests.token(.apnsIOSDevice, session: "s1"), DecisionTests.token(.fcmAndroid, session: "s2")]
        )
        for providers in [DecisionTests.providers(), DecisionTests.providers(broken: ["fcm-1"], webhook: true)] {
            let asked = Decider.decide(event, facts, settings: .init(), providers: providers, now: DecisionTests.now)
            let workedOut = Decider.decide(event, facts, settings: .init(), usable: UsableProviders(providers), now: DecisionTests.now)
            #expect(asked == workedOut)
        }
    }

    @Test func aSnapshotGivesTheSettingsOfTheCredentialItWouldUseOrWhyNot() throws {
        var providers = DecisionTests.providers(broken: ["fcm-1"], webhook: true)
        providers["hook-1"]?.config.enabled = false
        let snapshot = AppSnapshot(app: DecisionTests.app, providers: providers, templates: [])
        #expect(try snapshot.usableSettings("apns-1").get() == providers["apns-1"]?.config.settings)
        #expect(try snapshot.usableCredential("apns-1").get() == providers["apns-1"])
        for (id, reason) in [("fcm-1", "broken"), ("hook-1", "disabled"), ("gone", "deleted"), (nil, "deleted")] as [(String?, String)] {
            let settings = snapshot.usableSettings(id)
            let credential = snapshot.usableCredential(id)
            guard case .failure(let failure) = settings, case .failure(let same) = credential else {
                Issue.record("\(id ?? "nil") may not carry a push")
                continue
            }
            #expect(failure == same)
            switch (failure, reason) {
            case (.credentialBroken, "broken"), (.providerDisabled, "disabled"), (.providerDeleted, "deleted"): break
            default: Issue.record("\(id ?? "nil"): \(failure), expected \(reason)")
            }
        }
    }
}
