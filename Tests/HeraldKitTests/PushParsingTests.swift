import Foundation
import HeraldFixtures
import HeraldKit
import Testing

/// Every device payload the engine's golden tests produce is read back into typed values.
@Suite("HeraldKit: reading pushes")
struct PushParsingTests {
    /// The payload a device (or the webhook's backend) gets, as `userInfo` would hold it.
    static func payload(_ fixture: PayloadFixtures.Fixture) throws -> [String: Any] {
        let expected = try #require(fixture["expected"]?.objectValue)
        let value: JSONValue?
        if let apns = expected["apns"]?.objectValue {
            value = apns["payload"]
        } else if let fcm = expected["fcm"]?.objectValue {
            value = fcm["data"]
        } else {
            value = expected["webhook"]?.objectValue?["data"]?.objectValue?["notificationDetails"]
        }
        let data = Data(try #require(value).jsonBytes())
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func everyGoldenPayloadParsesIntoItsTypedMessage() throws {
        let fixtures = try PayloadFixtures.all()
        #expect(fixtures.count >= 28)
        for fixture in fixtures {
            let event = try #require(fixture["event"]?.objectValue)
            let payload = try Self.payload(fixture)
            let message = try Herald.processMessage(payload)
            switch event["type"]?.stringValue {
            case "message":
                let sent = try #require(event["message"]?.objectValue)
                #expect(message.sender.uid == sent["sender"]?.objectValue?["uid"]?.stringValue, "\(fixture.name)")
                #expect(message.receiverType.rawValue == sent["receiverType"]?.stringValue, "\(fixture.name)")
                let receiver = sent["receiver"]?.objectValue
                #expect(message.receiver.id == (receiver?["uid"] ?? receiver?["guid"])?.stringValue, "\(fixture.name)")
                #expect(
                    message.category == .message && message.conversationId.contains(message.sender.uid) || message.receiverType == .group,
                    "\(fixture.name)"
                )
                if fixture.name.contains("sendbird") {
                    #expect((message as? TextMessage)?.text == "Hello!", "\(fixture.name)")
                } else {
                    let text = try #require(message as? TextMessage, "\(fixture.name)")
                    var sentId = ""
                    if case .number(let number)? = sent["id"] { sentId = String(Int(number)) }
                    // With hideMessageText the text never leaves the server: the push says "New message".
                    let shown = fixture.name.contains("hidden") ? "New message" : sent["text"]?.stringValue
                    #expect(text.text == shown && text.id == sentId, "\(fixture.name)")
                    #expect(text.sentAt == Date(timeIntervalSince1970: 1_741_847_453) && text.muid == sent["muid"]?.stringValue, "\(fixture.name)")
                    #expect(text.sender.name == "Andrew Joseph" && text.sender.role == "default", "\(fixture.name)")
                }
            case "call":
                let call = try #require(message as? CallMessage, "\(fixture.name)")
                #expect(call.sessionId == event["sessionId"]?.stringValue && call.callAction == event["callAction"]?.stringValue, "\(fixture.name)")
                #expect(call.type == event["callType"]?.stringValue && call.category == .call, "\(fixture.name)")
                let info = try CallPushInfo(payload: payload)
                #expect(
                    info.uuid == CallPushInfo.uuid(forSession: "v1.123.aik2") && info.callerName == "Andrew Joseph"
                        && info.callerId == "cometchat-uid-1"
                )
                #expect(info.hasVideo == (event["callType"]?.stringValue == "video") && info.isIncoming == (info.callAction == "initiated"))
            case "group_action":
                let action = try #require(message as? ActionMessage, "\(fixture.name)")
                #expect(action.receiverType == .group && action.receiver.id == "cometchat-guid-1" && action.type == "groupMember", "\(fixture.name)")
                #expect(action.sender.uid == "cometchat-uid-1" && !action.message.isEmpty, "\(fixture.name)")
                #expect(try Herald.conversation(for: payload) == action.receiver)
            case "reaction":
                let action = try #require(message as? ActionMessage, "\(fixture.name)")
                #expect(action.type == "reaction" && action.id == "58" && action.message.contains("😎"), "\(fixture.name)")
            default:
                Issue.record("\(fixture.name): an event type the test does not know")
            }
        }
    }

    @Test func callUUIDsAreStablePerSessionAndDistinctAcross() {
        let one = CallPushInfo.uuid(forSession: "v1.123.aik2")
        #expect(one == CallPushInfo.uuid(forSession: "v1.123.aik2"))
        #expect(one != CallPushInfo.uuid(forSession: "v1.123.aik3"))
        #expect(one.uuidString.dropFirst(14).first == "5")
    }

    @Test func otherPushesAreNamedNotMistaken() throws {
        let campaign: [String: Any] = [
            "aps": ["alert": ["title": "Hi", "body": "Sale"]],
            "cometchat": [
                "type": "business_messaging", "appId": "app", "campaignId": "cmp_1", "notificationId": "fit_1", "pushNotificationId": "p-1",
                "uid": "ana", "sentAt": "2026-05-21T12:43:55.206Z",
            ],
        ]
        #expect(throws: HeraldKitError.notAMessage(kind: "business_messaging")) { try Herald.processMessage(campaign) }
        #expect(PushNotification.isCampaignPush(campaign))
        let push = try PushNotification.fromPayload(campaign)
        #expect(push.id == "p-1" && push.announcementId == "fit_1" && push.campaignId == "cmp_1" && push.source == "campaign")
        #expect(abs((push.sentAt?.timeIntervalSince1970 ?? 0) - 1_779_367_435.206) < 0.001)
        #expect(throws: HeraldKitError.notAMessage(kind: "session")) { try Herald.processMessage(["type": "session", "action": "logout"]) }
        #expect(throws: HeraldKitError.self) { try Herald.processMessage(["aps": ["alert": "x"]]) }
        #expect(Herald.hexString(Data([0x0a, 0xff, 0x00])) == "0aff00")
    }
}
