import Foundation
import HeraldModels
import Testing

@testable import HeraldCore

/// Mentions and importance: who a message mentions (uids, `mentionsAll`, keywords as whole words),
/// what "mentions only in groups" lets through, and how each alert's interruption level,
/// relevance score, Android channel and tag come out; the private content modes' payloads.
@Suite("Mentions, importance and content modes")
struct ImportanceTests {
    static let groupMessage = DecisionTests.groupMessage  // mentions cy
    static let everyone =
        #"{"type":"message","message":{"id":3,"text":"Lunch?","sender":"ana","receiver":"team","receiverType":"group","mentionsAll":true}}"#
    static let release =
        #"{"type":"message","message":{"id":4,"text":"The RELEASE is out, see release-notes","sender":"ana","receiver":"team","receiverType":"group"}}"#

    @Test func keywordsMatchWholeWordsInAnyCase() {
        #expect(Importance.containsWord("release", in: "The RELEASE is out"))
        #expect(Importance.containsWord("release", in: "release-notes"), "a hyphen ends a word")
        #expect(!Importance.containsWord("release", in: "released today"))
        #expect(!Importance.containsWord("release", in: "prerelease"))
        #expect(!Importance.containsWord("bo", in: "bo_2 joined"), "an underscore is part of a word")
        #expect(Importance.containsWord("café", in: "On se voit au CAFÉ ?"))
        #expect(Importance.containsWord("on call", in: "who is on call tonight"))
        #expect(!Importance.containsWord("  ", in: "anything"))
        #expect(Importance.containsWord("ship", in: "shipping? no: ship!"), "a later occurrence counts when the first is inside a word")
    }

    @Test func aMessageMentionsByUidEveryoneOrKeyword() throws {
        #expect(Importance.mentions(try DecisionTests.event(Self.groupMessage).event, uid: "cy", keywords: []))
        #expect(!Importance.mentions(try DecisionTests.event(Self.groupMessage).event, uid: "bo", keywords: []))
        #expect(Importance.mentions(try DecisionTests.event(Self.everyone).event, uid: "bo", keywords: []))
        #expect(Importance.mentions(try DecisionTests.event(Self.release).event, uid: "bo", keywords: ["Release"]))
        #expect(!Importance.mentions(try DecisionTests.event(Self.release).event, uid: "bo", keywords: ["rel"]))
        #expect(!Importance.mentions(try DecisionTests.event(DecisionTests.call).event, uid: "bo", keywords: ["audio"]))
    }

    @Test func mentionsOnlyInGroupsLetsThroughUidsEveryoneAndKeywords() throws {
        let mentionsOnly = NotificationPreferences(groupMentionsOnly: true)
        var bo = RecipientFacts(uid: "bo", user: DecisionTests.user(), preferences: mentionsOnly, tokens: [DecisionTests.token(.apnsIOSDevice)])
        #expect(DecisionTests.skipped(try DecisionTests.decide(Self.groupMessage, bo)) == .mentionsOnly)
        #expect(DecisionTests.skipped(try DecisionTests.decide(Self.everyone, bo)) == nil)
        #expect(DecisionTests.skipped(try DecisionTests.decide(Self.release, bo)) == .mentionsOnly)
        bo.preferences.keywords = ["release"]
        #expect(DecisionTests.skipped(try DecisionTests.decide(Self.release, bo)) == nil)
        #expect(DecisionTests.skipped(try DecisionTests.decide(DecisionTests.message, bo)) == nil, "a direct message is not a group's")
    }

    static func alert(_ json: String, facts: RecipientFacts, settings: PushSettings = .init()) throws -> (Delivery, OutgoingPush) {
        let plan = RecipientPlanTests.plan(facts, try RecipientPlanTests.context(json, settings: settings))
        let push = try #require(plan.pushes.first)
        return (push.delivery, push.push)
    }

    static func apns(_ push: OutgoingPush) throws -> APNsPush {
        guard case .apns(let apns) = push else { throw Failure("not an APNs push") }
        return apns
    }

    static func fcm(_ push: OutgoingPush) throws -> FCMPush {
        guard case .fcm(let fcm) = push else { throw Failure("not an FCM push") }
        return fcm
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func recipient(_ uid: String, _ platform: PushPlatform, keywords: [String]? = nil, contentMode: ContentMode? = nil) -> RecipientFacts {
        var token = DecisionTests.token(platform)
        token.uid = uid
        return RecipientFacts(
            uid: uid,
            user: DecisionTests.user(uid),
            preferences: NotificationPreferences(keywords: keywords, contentMode: contentMode),
            tokens: [token]
        )
    }

    @Test func aMentionBreaksThroughAndOthersWaitInTheSummary() throws {
        let (mentioned, mentionPush) = try Self.alert(Self.groupMessage, facts: Self.recipient("cy", .apnsIOSDevice))
        #expect(mentioned.style.mentioned)
        let mention = try Self.apns(mentionPush)
        #expect(mention.aps.interruptionLevel == .timeSensitive && mention.aps.relevanceScore == 1.0)
        #expect(mention.payload["aps"]?.objectValue?["interruption-level"] == .string("time-sensitive"))

        let (other, otherPush) = try Self.alert(Self.groupMessage, facts: Self.recipient("bo", .apnsIOSDevice))
        #expect(!other.style.mentioned)
        let group = try Self.apns(otherPush)
        #expect(group.aps.interruptionLevel == .active && group.aps.relevanceScore == Importance.groupRelevance)
        let direct = try Self.apns(try Self.alert(DecisionTests.message, facts: Self.recipient("bo", .apnsIOSDevice)).1)
        #expect(direct.aps.relevanceScore == Importance.directRelevance && direct.aps.threadId == "ana_user_bo")
        let call = try Self.apns(try Self.alert(DecisionTests.call, facts: Self.recipient("bo", .apnsIOSDevice)).1)
        #expect(call.aps.interruptionLevel == .timeSensitive, "a call rings through Focus")

        let keyword = try Self.alert(Self.release, facts: Self.recipient("bo", .apnsIOSDevice, keywords: ["release"]))
        let keywordPush = try Self.apns(keyword.1)
        #expect(keyword.0.style.mentioned && keywordPush.aps.interruptionLevel == .timeSensitive)
    }

    /// The push of a planned delivery through an FCM credential that shows notifications.
    static func shown(_ json: String, facts: RecipientFacts, settings: PushSettings) throws -> FCMPush {
        let context = try RecipientPlanTests.context(json, settings: settings)
        let delivery = try #require(RecipientPlanTests.plan(facts, context).pushes.first).delivery
        let visible = ProviderSettings.fcm(
            FCMSettings(projectId: "acme-chat", clientEmail: "h@acme-chat.iam.gserviceaccount.com", includeNotificationKey: true)
        )
        var texts = TextCache()
        let push = PushBuilder.push(for: delivery, of: context.event, snapshot: context.snapshot, settings: visible, texts: &texts, now: context.now)
        return try fcm(try push.get())
    }

    @Test func androidNotificationsAreTaggedByConversationOnTheirKindsChannel() throws {
        var settings = PushSettings()
        settings.androidChannels = AndroidChannels(messages: "chat", mentions: "chat-mentions", calls: "ringing")
        let visible = try Self.shown(Self.groupMessage, facts: Self.recipient("cy", .fcmAndroid), settings: settings)
        #expect(visible.android?.tag == "group_team" && visible.android?.channelId == "chat-mentions")
        let json = try #require(visible.message["android"]?.objectValue?["notification"]?.objectValue)
        #expect(json["tag"] == .string("group_team") && json["channel_id"] == .string("chat-mentions"))
        let plain = try Self.shown(Self.groupMessage, facts: Self.recipient("bo", .fcmAndroid), settings: settings)
        #expect(plain.android?.channelId == "chat")
        let call = try Self.shown(DecisionTests.call, facts: Self.recipient("bo", .fcmAndroid), settings: settings)
        #expect(call.android?.channelId == "ringing")
        let hidden = try Self.fcm(try Self.alert(Self.groupMessage, facts: Self.recipient("cy", .fcmAndroid), settings: settings).1)
        #expect(hidden.android?.tag == nil && hidden.android?.channelId == nil, "a data message leaves showing to the app")
    }

    @Test func idOnlyPushesCarryANewMessageKeyAndTheIds() throws {
        var settings = PushSettings()
        settings.contentMode = .idOnly
        let (row, push) = try Self.alert(DecisionTests.message, facts: Self.recipient("bo", .apnsIOSDevice), settings: settings)
        #expect(row.style.contentMode == .idOnly)
        let apns = try Self.apns(push)
        #expect(apns.aps.alert == .key(PushPayloads.newMessageKey) && apns.aps.mutableContent && apns.aps.badge == 1)
        #expect(apns.headers.collapseId == "1", "an edit still replaces it")
        let payload = apns.payload
        #expect(Set(payload.keys) == ["aps", "herald"], "nothing of the message beside aps")
        #expect(
            payload["herald"]
                == .object([
                    "type": .string("message"), "messageId": .string("1"), "conversationId": .string("ana_user_bo"), "sender": .string("ana"),
                ])
        )
        let text = try JSONValue.object(payload).jsonText()
        #expect(!text.contains("Hi"), "the text does not travel")

        let fcm = try Self.fcm(try Self.alert(DecisionTests.message, facts: Self.recipient("bo", .fcmAndroid), settings: settings).1)
        #expect(fcm.data == ["type": "message", "messageId": "1", "conversationId": "ana_user_bo", "sender": "ana"])
        #expect(fcm.notification == nil || fcm.notification?.title == nil)

        // A user's own choice wins over the app's; calls always carry what CallKit needs.
        let full = try Self.alert(DecisionTests.message, facts: Self.recipient("bo", .apnsIOSDevice, contentMode: .full), settings: settings)
        let fullPush = try Self.apns(full.1)
        #expect(full.0.style.contentMode == .full && fullPush.payload["title"] == .string("ana"))
        let call = try Self.apns(try Self.alert(DecisionTests.call, facts: Self.recipient("bo", .apnsIOSDevice), settings: settings).1)
        #expect(call.payload["sessionId"] == .string("c1"))
    }

    @Test func aStyleSurvivesItsColumn() {
        let styles = [
            PushStyle.plain, PushStyle(mentioned: true), PushStyle(contentMode: .encrypted),
            PushStyle(kind: .summary, count: 7, replaces: "m1"), PushStyle(kind: .clear),
            PushStyle(kind: .retract, mentioned: true, contentMode: .idOnly),
        ]
        for style in styles { #expect(PushStyle(storedText: style.storedText) == style) }
        #expect(PushStyle.plain.storedText == nil, "a plain notification stores nothing")
        #expect(PushStyle(storedText: "{not json") == .plain && PushStyle(storedText: #"{"kind":"later"}"#) == .plain)
    }
}
