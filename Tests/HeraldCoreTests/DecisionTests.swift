import Foundation
import HeraldModels
import Testing

@testable import HeraldCore

/// Core's decisions, with facts built in memory: the decider (every skip reason, both multi-device
/// policies, call routes), do-not-disturb across time zones and DST, the retry policy, why an event
/// reached nobody, and how a batch's failures are summarised.
@Suite("Decisions")
struct DecisionTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, a Wednesday
    static let app = App(id: "app1", name: "Acme", region: "us", createdAt: now)

    static func event(_ json: String) throws -> ResolvedEvent {
        let value = try JSONValue(jsonText: json)
        let parsed = try EventParser.parse(value, now: now)
        let event = ChatEvent(id: "evt_1", appId: app.id, clientId: nil, receivedAt: now, body: parsed.body, posted: value)
        return ResolvedEvent.resolve(event, app: app, users: [:], group: nil)
    }

    static let message = #"{"type":"message","message":{"id":1,"text":"Hi","sender":"ana","receiver":"bo","receiverType":"user"}}"#
    static let groupMessage =
        #"{"type":"message","message":{"id":2,"text":"Hi","sender":"ana","receiver":"team","receiverType":"group","mentions":["cy"]}}"#
    static let call =
        #"{"type":"call","callAction":"initiated","sessionId":"c1","callType":"audio","sender":"ana","receiver":"bo","receiverType":"user"}"#
    static let callEnded =
        #"{"type":"call","callAction":"ended","sessionId":"c1","callType":"audio","sender":"ana","receiver":"bo","receiverType":"user"}"#

    static func user(_ uid: String = "bo", timeZone: String? = nil) -> User {
        User(uid: uid, name: uid, timeZone: timeZone, createdAt: now, updatedAt: now)
    }

    static func token(_ platform: PushPlatform, session: String = "s1", provider: String? = nil) -> PushToken {
        let providerId = provider ?? (platform.tokenKind.providerKind == .apns ? "apns-1" : "fcm-1")
        return PushToken(
            appId: app.id,
            uid: "bo",
            sessionId: session,
            providerId: providerId,
            platform: platform,
            token: "tok-\(platform.rawValue)-\(session)",
            createdAt: now,
            lastSeenAt: now
        )
    }

    static func providers(broken: Set<String> = [], disabled: Set<String> = [], webhook: Bool = false) -> [String: ProviderCredential] {
        var list: [(String, ProviderKind)] = [("apns-1", .apns), ("fcm-1", .fcm)]
        if webhook { list.append(("hook-1", .custom)) }
        return Dictionary(
            uniqueKeysWithValues: list.map { id, kind in
                var config = ProviderConfig(.sample(kind), enabled: !disabled.contains(id))
                if broken.contains(id) { config.broken = BrokenCredential(reason: "BadCertificate", since: now) }
                return (id, ProviderCredential(appId: app.id, providerId: id, config: config, sealedSecret: "", createdAt: now, updatedAt: now))
            }
        )
    }

    static func decide(
        _ json: String,
        _ facts: RecipientFacts,
        settings: PushSettings = .init(),
        providers: [String: ProviderCredential] = providers()
    ) throws -> Decision {
        Decider.decide(try event(json), facts, settings: settings, providers: providers, now: now)
    }

    /// A user message from Ana to Bo.
    static func decide(
        _ facts: RecipientFacts,
        settings: PushSettings = .init(),
        providers: [String: ProviderCredential] = providers()
    ) throws -> Decision {
        try decide(message, facts, settings: settings, providers: providers)
    }

    static func skipped(_ decision: Decision) -> SkipReason? {
        if case .skip(let reason) = decision { return reason }
        return nil
    }

    @Test func everySkipReason() throws {
        let phone = Self.token(.apnsIOSDevice)
        let known = RecipientFacts(uid: "bo", user: Self.user(), tokens: [phone])
        var off = PushSettings()
        off.enabled = false
        #expect(Self.skipped(try Self.decide(known, settings: off)) == .pushDisabled)
        let suppressed =
            #"{"type":"message","message":{"id":1,"text":"Hi","sender":"ana","receiver":"bo","receiverType":"user","suppressPush":true}}"#
        #expect(Self.skipped(try Self.decide(suppressed, known)) == .suppressed)
        var prefs = known
        prefs.preferences = NotificationPreferences(events: [.message: false])
        #expect(Self.skipped(try Self.decide(prefs)) == .preferenceOff)
        var mentions = known
        mentions.preferences = NotificationPreferences(groupMentionsOnly: true)
        #expect(Self.skipped(try Self.decide(Self.groupMessage, mentions)) == .mentionsOnly)
        mentions.uid = "cy"  // mentioned: told
        #expect(Self.skipped(try Self.decide(Self.groupMessage, mentions)) == nil)
        var muted = known
        muted.mutes = [ConversationMute(conversationId: "ana_user_bo", until: nil)]
        #expect(Self.skipped(try Self.decide(muted)) == .muted)
        muted.mutes = [ConversationMute(conversationId: "ana_user_bo", until: Self.now.addingTimeInterval(-60))]
        #expect(Self.skipped(try Self.decide(muted)) == nil, "an expired mute no longer holds")
        var quiet = known
        quiet.preferences = NotificationPreferences(doNotDisturb: .init(enabled: true, until: Self.now.addingTimeInterval(3_600)))
        #expect(Self.skipped(try Self.decide(quiet)) == .doNotDisturb)
        #expect(Self.skipped(try Self.decide(Self.call, quiet)) == nil, "calls break through by default")
        #expect(Self.skipped(try Self.decide(RecipientFacts(uid: "bo", user: Self.user()))) == .noTokens)
        #expect(Self.skipped(try Self.decide(RecipientFacts(uid: "zed"))) == .unknownUser)
        #expect(Self.skipped(try Self.decide(known, providers: Self.providers(broken: ["apns-1"]))) == .noUsableTokens)
        #expect(Self.skipped(try Self.decide(known, providers: Self.providers(disabled: ["apns-1"]))) == .noUsableTokens)
        // An unknown user is still called when a webhook provider takes every recipient.
        guard case .push(let choices, let webhooks, _) = try Self.decide(RecipientFacts(uid: "zed"), providers: Self.providers(webhook: true)) else {
            Issue.record("a webhook provider was not called")
            return
        }
        #expect(choices.isEmpty && webhooks == ["hook-1"])
    }

    @Test func multiDevicePolicies() throws {
        let phone = Self.token(.apnsIOSDevice, session: "phone")
        let laptop = Self.token(.fcmWeb, session: "laptop")
        let online = PresenceRecord(appId: Self.app.id, uid: "bo", sessionId: "laptop", instance: "i", since: Self.now)
        let facts = RecipientFacts(uid: "bo", user: Self.user(), presence: [online], tokens: [phone, laptop])
        // all_offline: one session online is enough to tell them in-app only.
        #expect(try Self.decide(facts) == .inApp(sessions: ["laptop"]))
        // any_offline: the offline phone is pushed, the online laptop told in-app.
        var settings = PushSettings()
        settings.multiDevicePolicy = .anyOffline
        guard case .push(let choices, _, let inApp) = try Self.decide(facts, settings: settings) else {
            Issue.record("not pushed")
            return
        }
        #expect(choices.map(\.token.sessionId) == ["phone"] && inApp == ["laptop"])
    }

    @Test func callsRingVoIPTokensAndEndQuietly() throws {
        let device = Self.token(.apnsIOSDevice, session: "s1")
        let voip = Self.token(.apnsIOSVoIP, session: "s1")
        let android = Self.token(.fcmAndroid, session: "s2")
        let facts = RecipientFacts(uid: "bo", user: Self.user(), tokens: [device, voip, android])
        guard case .push(let ringing, _, _) = try Self.decide(Self.call, facts) else {
            Issue.record("no push")
            return
        }
        #expect(
            Set(ringing.map { "\($0.token.platform.rawValue):\($0.route)" }) == ["apns_ios_voip:voip", "fcm_android:alert"],
            "a session with a VoIP token rings there, not with an alert"
        )
        guard case .push(let ended, _, _) = try Self.decide(Self.callEnded, facts) else {
            Issue.record("no push")
            return
        }
        #expect(Set(ended.map { "\($0.token.platform.rawValue):\($0.route)" }) == ["apns_ios_device:background", "fcm_android:background"])
        guard case .push(let chat, _, _) = try Self.decide(facts) else {
            Issue.record("no push")
            return
        }
        #expect(!chat.contains { $0.route == .voip } && chat.allSatisfy { $0.route == .alert }, "chat never goes to a VoIP token")
    }

    @Test func doNotDisturbFollowsTheUsersClockAcrossDST() {
        let night = NotificationPreferences(doNotDisturb: .init(enabled: true, start: "22:00", end: "07:00"))
        func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
        // 21:30 UTC is 22:30 in Paris in winter (quiet) and 23:30 in summer (quiet); 05:30 UTC is
        // 06:30 in winter (quiet) and 07:30 in summer (not).
        #expect(night.isQuiet(at: at("2026-01-15T21:30:00Z"), timeZone: "Europe/Paris", isCall: false))
        #expect(night.isQuiet(at: at("2026-01-15T05:30:00Z"), timeZone: "Europe/Paris", isCall: false))
        #expect(!night.isQuiet(at: at("2026-07-15T05:30:00Z"), timeZone: "Europe/Paris", isCall: false))
        // The night the clocks go forward (29 March 2026, 02:00 → 03:00 in Paris): 05:30 UTC is 07:30.
        #expect(night.isQuiet(at: at("2026-03-29T04:30:00Z"), timeZone: "Europe/Paris", isCall: false))
        #expect(!night.isQuiet(at: at("2026-03-29T05:30:00Z"), timeZone: "Europe/Paris", isCall: false))
        // The same instant is day in São Paulo and night in Tokyo; an unknown zone reads UTC.
        #expect(!night.isQuiet(at: at("2026-01-15T15:00:00Z"), timeZone: "America/Sao_Paulo", isCall: false))
        #expect(night.isQuiet(at: at("2026-01-15T15:00:00Z"), timeZone: "Asia/Tokyo", isCall: false))
        #expect(night.isQuiet(at: at("2026-01-15T23:00:00Z"), timeZone: "Not/AZone", isCall: false))
        // A daytime window does not wrap midnight; calls break through unless told not to.
        let day = NotificationPreferences(doNotDisturb: .init(enabled: true, start: "09:00", end: "17:00", allowCalls: false))
        #expect(day.isQuiet(at: at("2026-01-15T10:00:00Z"), timeZone: nil, isCall: true))
        #expect(!day.isQuiet(at: at("2026-01-15T18:00:00Z"), timeZone: nil, isCall: false))
        #expect(!night.isQuiet(at: at("2026-01-15T23:00:00Z"), timeZone: nil, isCall: true))
    }

    @Test func retriesBackOffWithinTheirJitterAndNeverBeforeRetryAfter() {
        let policy = RetryPolicy()
        #expect(policy.delay(afterAttempts: 1, retryAfter: nil, random: 0) == 2)
        #expect(policy.delay(afterAttempts: 4, retryAfter: nil, random: 0) == 16)
        #expect(policy.delay(afterAttempts: 30, retryAfter: nil, random: 0) == 15 * 60, "capped")
        #expect(policy.delay(afterAttempts: 3, retryAfter: nil, random: -1) == 8 * 0.8)
        #expect(policy.delay(afterAttempts: 3, retryAfter: nil, random: 1) == 8 * 1.2)
        for _ in 0..<200 {
            let delay = policy.delay(afterAttempts: 3, retryAfter: nil)
            #expect((6.4...9.6).contains(delay))
        }
        #expect(policy.delay(afterAttempts: 1, retryAfter: .seconds(120), random: 1) == 120, "Retry-After is a floor")
        #expect(policy.delay(afterAttempts: 1, retryAfter: .milliseconds(2_500), random: -1) == 2.5)
    }

    @Test func whyAnEventReachedNobody() throws {
        let group = Group(guid: "team", name: "Team", type: .public, owner: "ana", createdAt: Self.now, updatedAt: Self.now)
        let toGroup = try Self.event(Self.groupMessage).event
        let toUser = try Self.event(Self.message).event
        #expect(RecipientPage.nobodyReason(toGroup, recipients: [], users: [:], groups: [:]) == .unknownGroup)
        #expect(RecipientPage.nobodyReason(toGroup, recipients: [], users: [:], groups: ["team": group]) == .noMembers)
        #expect(RecipientPage.nobodyReason(toGroup, recipients: ["cy"], users: [:], groups: ["team": group]) == nil)
        #expect(RecipientPage.nobodyReason(toUser, recipients: ["bo"], users: [:], groups: [:]) == .unknownUser)
        #expect(RecipientPage.nobodyReason(toUser, recipients: ["bo"], users: ["bo": Self.user()], groups: [:]) == nil)
        let read = try Self.event(#"{"type":"read","uid":"bo","conversationId":"ana_user_bo"}"#).event
        #expect(RecipientPage.nobodyReason(read, recipients: [], users: [:], groups: [:]) == nil, "a read is for nobody, by design")
    }

    @Test func aBatchsFailuresAreCountedByOutcomeAndReasonCode() {
        let updates = [
            DeliveryUpdate(id: "1", status: .delivered, attempts: 1, at: Self.now),
            DeliveryUpdate(id: "2", status: .failed, failure: .tokenInvalid("Unregistered", hint: nil), attempts: 1, at: Self.now),
            DeliveryUpdate(id: "3", status: .failed, failure: .tokenInvalid("BadDeviceToken", hint: "since 2026"), attempts: 1, at: Self.now),
            DeliveryUpdate(id: "4", status: .pending, failure: .provider("TooManyRequests"), attempts: 1, at: Self.now),
            DeliveryUpdate(id: "5", status: .expired, failure: .expired, attempts: 0, at: Self.now),
            DeliveryUpdate(id: "6", status: .failed, failure: .provider("PayloadTooLarge (local: 5000 bytes > 4096)"), attempts: 1, at: Self.now),
        ]
        #expect(
            Dispatcher.failures(in: updates) == [
                BatchFailure(outcome: "expired", reason: "expired", count: 1),
                BatchFailure(outcome: "failed", reason: "PayloadTooLarge", count: 1),
                BatchFailure(outcome: "failed", reason: "token_invalid", count: 2),
                BatchFailure(outcome: "retrying", reason: "TooManyRequests", count: 1),
            ]
        )
    }
}
