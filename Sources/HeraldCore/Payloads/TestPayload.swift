import Foundation
import HeraldModels

/// The payloads of a test push: a visible notification with a title and body, shaped for each
/// provider and token kind with the credential's toggles (CometChat: include notification key,
/// content-available, mutable-content).
public enum TestPayload {
    public static func build(
        settings: ProviderSettings,
        tokenKind: PushTokenKind?,
        token: String,
        uid: String,
        app: App,
        title: String,
        body: String,
        data: [String: String],
        at date: Date,
        keys: PushEncryptionKeys? = nil
    ) -> OutgoingPush {
        switch settings {
        case .apns(let apns):
            var fields: JSONObject = data.mapValues { .string($0) }
            if tokenKind == .apnsVoIP {
                fields["title"] = .string(title)
                fields["body"] = .string(body)
                return .apns(APNsPush(deviceToken: token, headers: APNsHeaders(.voip), aps: .empty, fields: fields))
            }
            let aps = APS(
                alert: .text(title: title, body: body),
                sound: "default",
                contentAvailable: apns.contentAvailable,
                mutableContent: apns.mutableContent
            )
            return .apns(APNsPush(deviceToken: token, headers: APNsHeaders(.alert), aps: aps, fields: fields))
        case .fcm, .hms:
            var fields = data
            fields["title"] = title
            fields["body"] = body
            let visible = settings.includesNotification
            if case .hms = settings { return .hms(HMSPush(token: token, data: fields, title: visible ? title : nil, body: visible ? body : nil)) }
            return .fcm(FCMPush(token: token, data: fields, notification: visible ? .init(title: title, body: body) : nil))
        case .webPush:
            var fields: JSONObject = ["title": .string(title), "body": .string(body)]
            if !data.isEmpty { fields["data"] = .object(data.mapValues { .string($0) }) }
            return .webPush(
                WebPushMessage(endpoint: token, keys: keys, payload: JSONValue.object(fields).jsonBytes(), ttlSeconds: 3_600, urgency: .normal)
            )
        case .webhook:
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
