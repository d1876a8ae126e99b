import Foundation
import HeraldKit
import Testing

/// Clears and retracts as HeraldKit reads them, and which shown notifications they remove.
@Suite("Clear and retract pushes")
struct HeraldNoticeTests {
    static var apnsClear: [AnyHashable: Any] {
        [
            "aps": ["content-available": 1, "badge": 2], "herald": ["type": "clear", "conversationId": "ana_user_bo", "upToMessageId": "9"],
        ]
    }
    static var fcmRetract: [AnyHashable: Any] { ["type": "retract", "messageId": "500", "conversationId": "group_team"] }

    @Test func clearsAndRetractsParseFromAPNsAndFCM() {
        #expect(HeraldNotice.parse(Self.apnsClear) == .clear(conversationId: "ana_user_bo", upToMessageId: "9"))
        #expect(HeraldNotice.parse(Self.fcmRetract) == .retract(messageId: "500", conversationId: "group_team"))
        #expect(HeraldNotice.parse(["type": "clear", "conversationId": "c"]) == .clear(conversationId: "c", upToMessageId: nil))
        #expect(HeraldNotice.parse(["aps": ["alert": "Hi"], "tag": "1", "type": "chat"]) == nil, "a chat push is not a notice")
        #expect(HeraldNotice.parse(["type": "retract", "conversationId": "c"]) == nil, "a retract names its message")
    }

    @Test func theRightNotificationsAreRemoved() {
        let shown = [
            HeraldNotice.Shown(identifier: "n1", payload: ["tag": "8", "conversationId": "ana_user_bo"]),
            HeraldNotice.Shown(identifier: "n2", payload: ["aps": ["thread-id": "ana_user_bo"], "herald": ["messageId": "9"]]),
            HeraldNotice.Shown(identifier: "n3", payload: ["tag": "500", "conversationId": "group_team"]),
            HeraldNotice.Shown(identifier: "n4", payload: ["tag": "501", "conversationId": "group_team"]),
        ]
        #expect(HeraldNotice.parse(Self.apnsClear)?.identifiersToRemove(from: shown) == ["n1", "n2"])
        #expect(HeraldNotice.parse(Self.fcmRetract)?.identifiersToRemove(from: shown) == ["n3"])
    }

    @Test func theContentModeOfAPushIsKnown() {
        #expect(HeraldPushContent.of(["aps": ["alert": ["loc-key": "x"]], "herald": ["enc": "AAAA"]]) == .encrypted("AAAA"))
        #expect(
            HeraldPushContent.of(["herald": ["type": "message", "messageId": "4", "conversationId": "c", "sender": "ana"]])
                == .idOnly(messageId: "4", conversationId: "c", sender: "ana")
        )
        #expect(HeraldPushContent.of(["title": "Ana", "body": "Hi", "tag": "4", "conversationId": "c"]) == .full)
        #expect(HeraldPushContent.of(Self.apnsClear) == .full, "a clear is not an id-only message")
    }
}
