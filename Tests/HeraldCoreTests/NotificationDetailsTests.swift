import Foundation
import HeraldCore
import HeraldModels
import Testing

/// The notification details are described once and made two ways: the dictionary (webhooks,
/// FCM and HMS data) and the text written straight into an APNs payload. The golden payloads pin
/// the documented shapes; these pin the two ways to each other where no fixture goes.
@Suite("Notification details")
struct NotificationDetailsTests {
    static let sentAt = Date(timeIntervalSince1970: 1_741_847_453)

    static func resolved(_ message: JSONObject, action: String) throws -> ResolvedEvent {
        let parsed = try EventParser.parse(
            .object(["type": .string("message"), "action": .string(action), "message": .object(message)]),
            now: sentAt
        )
        let app = App(id: "app1", name: "Acme", region: "us", settings: PushSettings(), createdAt: sentAt)
        return ResolvedEvent.resolve(
            ChatEvent(id: "evt_1", appId: "app1", clientId: nil, receivedAt: sentAt, body: parsed.body),
            app: app,
            users: [:],
            group: nil
        )
    }

    static let groupMessage: JSONObject = [
        "id": .number(77), "muid": .string("m-77"), "category": .string("message"), "type": .string("text"),
        "text": .string("secret plans"), "receiverType": .string("group"),
        "receiver": .object([
            "guid": .string("g1"), "name": .string("Team"), "icon": .string("https://example.com/g.png"), "owner": .string("ana"),
            "membersCount": .number(3), "type": .string("private"),
        ]),
        "sender": .object(["uid": .string("ana"), "name": .string("Ana"), "status": .string("online")]),
        "sentAt": .number(1_741_847_453_000), "mentions": .array([.string("bob"), .string("cy")]), "parentId": .string("70"),
        "metadata": .object(["reply": .object(["depth": .number(1)])]), "data": .object(["k": .string("v")]),
        "deletedBy": .string("mod"), "deletedAt": .number(1_741_847_500),
    ]

    static func push(_ event: ResolvedEvent, settings: PushSettings, route: PushRoute = .alert, unread: Int? = nil) -> APNsPush {
        let text = RenderedText(title: "Ana @ Team", body: "secret plans")
        let context = PushContext(event: event, text: text, settings: settings, unread: unread, now: sentAt)
        return PushPayloads.apns(context, token: "TOKEN", route: route, provider: nil)
    }

    @Test(arguments: [PushRoute.alert, .voip, .background])
    func theTextWrittenIsTheDictionary(_ route: PushRoute) throws {
        var settings = PushSettings()
        settings.includeConversationUnread = true
        settings.customJSON = ["campaign": .string("spring"), "n": .number(2)]
        for action in ["new", "edited", "deleted"] {
            let push = Self.push(try Self.resolved(Self.groupMessage, action: action), settings: settings, route: route, unread: 4)
            guard case .details = push.content else { throw Failure("the push does not carry the details to be written") }
            #expect(try JSONValue(jsonBytes: push.payloadBytes) == .object(push.payload), "\(action), \(route)")
        }
    }

    @Test func aDeletedGroupMessageCarriesItsGroupAndWhoDeletedItButNotItsText() throws {
        var settings = PushSettings()
        settings.includeConversationUnread = true
        let push = Self.push(try Self.resolved(Self.groupMessage, action: "deleted"), settings: settings, unread: 4)
        guard case .object(let payload) = try JSONValue(jsonBytes: push.payloadBytes), case .object(let message)? = payload["message"],
            case .object(let receiver)? = message["receiver"]
        else { throw Failure("no message object") }
        #expect(payload["receiver"] == .string("g1"))
        #expect(payload["receiverAvatar"] == .string("https://example.com/g.png"))
        #expect(payload["unreadCount"] == .number(4))
        #expect(message["text"] == nil && message["data"] != nil)
        #expect(message["deletedBy"] == .string("mod") && message["deletedAt"] == .number(1_741_847_500))
        #expect(message["mentions"] == .array([.string("bob"), .string("cy")]) && message["parentId"] == .string("70"))
        #expect(receiver["owner"] == .string("ana") && receiver["hasJoined"] == .bool(true) && receiver["membersCount"] == .number(3))
    }

    @Test func hiddenTextAndNoMessageObjectAreWrittenAsTheyAreBuilt() throws {
        var settings = PushSettings()
        settings.hideMessageText = true
        let hidden = Self.push(try Self.resolved(Self.groupMessage, action: "new"), settings: settings)
        guard case .object(let payload) = try JSONValue(jsonBytes: hidden.payloadBytes), case .object(let message)? = payload["message"] else {
            throw Failure("no message object")
        }
        #expect(message["text"] == nil && message["data"] == nil && message["metadata"] != nil)
        settings.includeMessageObject = false
        let bare = Self.push(try Self.resolved(Self.groupMessage, action: "new"), settings: settings)
        #expect(try JSONValue(jsonBytes: bare.payloadBytes) == .object(bare.payload))
        #expect(bare.payload["message"] == nil && bare.payload["unreadCount"] == nil)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
