import Foundation
import HeraldModels

/// The payloads of a test push: a visible notification with a title and body, shaped for each
/// provider and token kind with the credential's toggles (CometChat: include notification key,
/// content-available, mutable-content).
public enum TestPayload {
    public static func build(kind: ProviderKind, tokenKind: PushTokenKind?, token: String, uid: String, config: ProviderConfig,
                             app: App, title: String, body: String, data: [String: String], at date: Date) -> OutgoingPush {
        switch kind {
        case .apns:
            var payload: JSONObject = data.mapValues { .string($0) }
            if tokenKind == .apnsVoIP {
                payload["aps"] = .object([:])
                payload["title"] = .string(title)
                payload["body"] = .string(body)
                return .apns(.init(deviceToken: token, pushType: "voip", payload: payload))
            }
            var aps: JSONObject = ["alert": .object(["title": .string(title), "body": .string(body)]), "sound": .string("default")]
            if config.mutableContent == true { aps["mutable-content"] = .number(1) }
            if config.contentAvailable == true { aps["content-available"] = .number(1) }
            payload["aps"] = .object(aps)
            return .apns(.init(deviceToken: token, pushType: "alert", payload: payload))
        case .fcm:
            var fields = data
            fields["title"] = title
            fields["body"] = body
            let visible = config.includeNotificationKey == true
            return .fcm(.init(token: token, data: fields, title: visible ? title : nil, body: visible ? body : nil))
        case .hms:
            var fields = data
            fields["title"] = title
            fields["body"] = body
            let visible = config.includeNotificationKey == true
            return .hms(.init(token: token, data: fields, title: visible ? title : nil, body: visible ? body : nil))
        case .custom:
            var details: JSONObject = [
                "title": .string(title), "body": .string(body), "type": .string("test"),
                "receiver": .string(uid), "receiverType": .string("user"),
                "sentAt": .string(String(date.millisecondsSince1970)),
            ]
            if !data.isEmpty { details["custom"] = .object(data.mapValues { .string($0) }) }
            return .webhook(WebhookEnvelope(uid: uid, notificationDetails: details, appId: app.id, region: app.region))
        }
    }
}
