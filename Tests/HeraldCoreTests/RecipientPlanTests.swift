import Foundation
import HeraldModels
import Testing

@testable import HeraldCore

/// One recipient planned from facts alone: the decision's rows in the delivery log, the push of
/// each row sent now, and the unread count the event moves (and the badge it shows).
@Suite("Recipient plans")
struct RecipientPlanTests {
    static let now = DecisionTests.now

    static func context(
        _ json: String = DecisionTests.message,
        settings: PushSettings = .init(),
        webhook: Bool = false
    ) throws -> RecipientPlan.Context {
        let event = try DecisionTests.event(json)
        var app = DecisionTests.app
        app.settings = settings
        let snapshot = AppSnapshot(app: app, providers: DecisionTests.providers(webhook: webhook), templates: [])
        return RecipientPlan.Context(event: event, snapshot: snapshot, now: now, expiresAt: now.addingTimeInterval(86_400))
    }

    static func plan(_ facts: RecipientFacts, counts: [String: Int] = [:], _ context: RecipientPlan.Context, burst: NoticeWindow? = nil) -> Planned {
        var texts = TextCache()
        var pushes: [PreparedPush] = []
        let plan = RecipientPlan.make(facts, counts: counts, in: context, burst: burst, texts: &texts, pushes: &pushes)
        return Planned(plan: plan, pushes: pushes)
    }

    /// A recipient's plan with the pushes it added to the batch's.
    @dynamicMemberLookup
    struct Planned {
        var plan: RecipientPlan
        var pushes: [PreparedPush]
        subscript<T>(dynamicMember path: KeyPath<RecipientPlan, T>) -> T { plan[keyPath: path] }
    }

    static let phone = DecisionTests.token(.apnsIOSDevice)
    static let bo = RecipientFacts(uid: "bo", user: DecisionTests.user(), tokens: [phone])

    @Test func aNewMessageIsPushedWithTheBadgeItMakes() throws {
        let plan = Self.plan(Self.bo, counts: ["ana_user_bo": 2, "group_team": 1], try Self.context())
        #expect(plan.unreadIncrement == UnreadKey(uid: "bo", conversationId: "ana_user_bo"))
        let row = try #require(plan.deliveries.first)
        #expect(plan.deliveries.count == 1 && row.status == .sending && row.target == .token(Self.phone.token) && row.route == .alert)
        #expect(row.badge == 4 && row.unread == 3, "the badge counts this message; the conversation's count too")
        #expect(row.expiresAt == Self.now.addingTimeInterval(86_400) && row.subject == .event("evt_1"))
        guard case .apns(let push) = try #require(plan.pushes.first).push else {
            Issue.record("not an APNs push")
            return
        }
        #expect(plan.pushes.map(\.delivery.id) == [row.id])
        #expect(push.deviceToken == Self.phone.token && push.headers.kind == .alert && push.aps.badge == 4 && push.aps.threadId == "ana_user_bo")
    }

    @Test func aSkippedRecipientHasOneRowNoPushAndNoUnreadCount() throws {
        var muted = Self.bo
        muted.mutes = [ConversationMute(conversationId: "ana_user_bo", until: nil)]
        let plan = Self.plan(muted, counts: ["ana_user_bo": 2], try Self.context())
        #expect(
            plan.deliveries.map(\.status) == [.skipped] && plan.deliveries[0].reason == "muted" && plan.deliveries[0].target == DeliveryTarget.none
        )
        #expect(plan.pushes.isEmpty && plan.unreadIncrement == nil && plan.deliveries[0].badge == 2)
    }

    @Test func anEditDoesNotCountAsUnreadAgain() throws {
        let edited = #"{"type":"message","action":"edited","message":{"id":1,"text":"Hi!","sender":"ana","receiver":"bo","receiverType":"user"}}"#
        let plan = Self.plan(Self.bo, counts: ["ana_user_bo": 1], try Self.context(edited))
        #expect(plan.unreadIncrement == nil && plan.deliveries[0].badge == 1 && plan.pushes.count == 1)
    }

    @Test func onlineSessionsAndWebhooksGetRowsOfTheirOwn() throws {
        var settings = PushSettings()
        settings.multiDevicePolicy = .anyOffline
        var facts = Self.bo
        facts.presence = [PresenceRecord(appId: "app1", uid: "bo", sessionId: "laptop", instance: "i", since: Self.now)]
        let plan = Self.plan(facts, try Self.context(settings: settings, webhook: true))
        #expect(plan.deliveries.map(\.target) == [.token(Self.phone.token), .webhook(providerId: "hook-1"), .inApp])
        #expect(plan.deliveries.map(\.status) == [.sending, .sending, .inapp] && plan.deliveries[2].reason == "online (1 session)")
        guard case .webhook(let envelope) = plan.pushes[1].push else {
            Issue.record("no webhook call")
            return
        }
        #expect(envelope.data.to.uid == "bo")
    }

    @Test func aTokenOfAnotherProvidersKindFailsAtOnce() throws {
        let stray = DecisionTests.token(.fcmAndroid, provider: "apns-1")
        let plan = Self.plan(RecipientFacts(uid: "bo", user: DecisionTests.user(), tokens: [stray]), try Self.context())
        #expect(plan.pushes.isEmpty && plan.deliveries.map(\.status) == [.failed])
        #expect(plan.deliveries[0].reason == "provider apns-1 is apns, not fcm")
    }
}
