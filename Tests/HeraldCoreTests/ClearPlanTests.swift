import Foundation
import HeraldModels
import Testing

@testable import HeraldCore

/// Clears from facts alone: who is cleared, with what badge, and what a window's close lets out.
@Suite("Clears")
struct ClearPlanTests {
    static let now = DecisionTests.now
    static let read = ReadEvent(uid: "bo", conversationId: "ana_user_bo", messageId: "9", readAt: now, sessionId: "s1")

    static func token(_ platform: PushPlatform, session: String, provider: String? = nil) -> PushToken {
        DecisionTests.token(platform, session: session, provider: provider)
    }

    @Test func everyOtherDeviceButBrowsersAndVoIPIsCleared() {
        let tokens = [
            Self.token(.apnsIOSDevice, session: "s1"), Self.token(.apnsIOSDevice, session: "s2"), Self.token(.apnsIOSVoIP, session: "s2"),
            Self.token(.fcmAndroid, session: "s3"), Self.token(.fcmWeb, session: "s4"), Self.token(.fcmAndroid, session: "s5", provider: "gone"),
        ]
        let rows = ClearPlan.deliveries(
            for: Self.read,
            eventId: "evt_r",
            appId: "app1",
            tokens: tokens,
            usable: UsableProviders(DecisionTests.providers(disabled: ["gone"], webhook: true)),
            exceptSession: "s1",
            badge: 3,
            now: Self.now,
            expiresAt: Self.now.addingTimeInterval(60),
            status: .sending
        )
        #expect(rows.compactMap(\.target.token) == [tokens[1].token, tokens[3].token])
        #expect(rows.filter { $0.channel == .webhook }.count == 1)
        #expect(rows.allSatisfy { $0.style.kind == .clear && $0.badge == 3 && $0.subject == .event("evt_r") && $0.status == .sending })
        #expect(rows.filter { $0.channel == .push }.allSatisfy { $0.route == .background })
    }

    @Test func theBadgeIsTheUnreadTotalAfterTheRead() {
        #expect(ClearPlan.badge(["ana_user_bo": 4, "cy_user_bo": 2, "group_team": 1], reading: "ana_user_bo", settings: .init()) == 3)
        var off = PushSettings()
        off.badge = false
        #expect(ClearPlan.badge(["cy_user_bo": 2], reading: "ana_user_bo", settings: off) == nil)
    }

    @Test func aClosingWindowLetsOutWhatItHeldAndOpensAgain() throws {
        let snapshot = AppSnapshot(app: DecisionTests.app, providers: DecisionTests.providers(), templates: [])
        let key = NoticeWindow.Key(uid: "bo", conversationId: "ana_user_bo", kind: .clear)
        let held = NoticeWindow(appId: "app1", key: key, closesAt: Self.now, held: 2, lastEventId: "evt_last", exceptSession: "s1")
        let tokens = [Self.token(.apnsIOSDevice, session: "s1"), Self.token(.apnsIOSDevice, session: "s2")]
        let closed = WindowSweeper.close(held, snapshot: snapshot, tokens: tokens, unread: ["cy_user_bo": 1], now: Self.now)
        #expect(closed.deliveries.map(\.target) == [.token(tokens[1].token)])
        let row = try #require(closed.deliveries.first)
        #expect(row.status == .pending && row.nextAttemptAt == Self.now && row.subject == .event("evt_last") && row.badge == 1)
        #expect(closed.close.reopenUntil == Self.now.addingTimeInterval(5) && closed.close.released == 2)

        let empty = WindowSweeper.close(
            NoticeWindow(appId: "app1", key: key, closesAt: Self.now),
            snapshot: snapshot,
            tokens: tokens,
            unread: [:],
            now: Self.now
        )
        #expect(empty.deliveries.isEmpty && empty.close.reopenUntil == nil, "nothing waited: the window goes")
    }
}

/// Bursts from facts alone: the first message opens the window, the next are held, and the
/// summary's words follow the recipient's language.
@Suite("Burst summaries")
struct BurstTests {
    static let now = DecisionTests.now

    static func plan(window: NoticeWindow?) throws -> RecipientPlanTests.Planned {
        var context = try RecipientPlanTests.context()
        context.burstWindow = 30
        return RecipientPlanTests.plan(RecipientPlanTests.bo, context, burst: window)
    }

    @Test func theFirstMessageAlertsAndOpensTheWindowTheNextAreHeld() throws {
        let first = try Self.plan(window: nil)
        guard case .open(let window)? = first.windowChange else {
            Issue.record("no window opened")
            return
        }
        #expect(first.pushes.count == 1 && window.closesAt == Self.now.addingTimeInterval(30) && window.collapseId == "1")
        let next = try Self.plan(window: window)
        #expect(next.pushes.isEmpty && next.deliveries.map(\.status) == [.held])
        #expect(next.unreadIncrement != nil, "a held message is unread all the same")
        guard case .hold(_, let key, let eventId, _, let closesAt)? = next.windowChange else {
            Issue.record("not held")
            return
        }
        #expect(key.kind == .burst && key.conversationId == "ana_user_bo" && eventId == "evt_1" && closesAt == window.closesAt)
        var closed = window
        closed.closesAt = Self.now
        if case .open? = try Self.plan(window: closed).windowChange {} else { Issue.record("a closed window does not hold") }
    }

    @Test func theSummaryIsInTheRecipientsLanguage() throws {
        let event = try DecisionTests.event(DecisionTests.message)
        #expect(BurstSummary.text(event, count: 5, locale: "pt-BR").body == "5 novas mensagens")
        #expect(BurstSummary.text(event, count: 5, locale: "de_AT").body == "5 neue Nachrichten")
        #expect(BurstSummary.text(event, count: 3, locale: "xx").body == "3 new messages")
        #expect(BurstSummary.text(event, count: 3, locale: nil).title == "ana", "a direct conversation is titled with the sender")
    }
}
