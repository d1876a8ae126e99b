import Foundation
import HeraldModels

extension PushPayloads {
    /// CometChat Campaigns' campaign push: `aps` with the alert, the badge when set and `mutable-content`
    /// (so a Notification Service Extension can report it delivered), and the `cometchat`
    /// dictionary of type `business_messaging`. FCM and HMS carry the same fields as data (with
    /// the title and body as a notification); FCM's iOS tokens get the `aps` block too.
    public static func campaign(_ item: FeedItem, token: String, platform: PushPlatform, badge: Int?, keys: PushEncryptionKeys? = nil) -> OutgoingPush
    {
        let fields = campaignFields(item)
        let title = item.pushTitle ?? ""
        let body = item.pushBody ?? ""
        let aps = APS(alert: .text(title: title, body: body), badge: badge, mutableContent: true)
        switch platform.tokenKind.providerKind {
        case .apns:
            return .apns(
                APNsPush(
                    deviceToken: token,
                    headers: APNsHeaders(.alert),
                    aps: aps,
                    fields: ["cometchat": .object(fields.mapValues(JSONValue.string))]
                )
            )
        case .hms:
            return .hms(HMSPush(token: token, data: fields, title: title, body: body))
        case .webpush:
            var object: JSONObject = ["title": .string(title), "body": .string(body), "data": .object(fields.mapValues(JSONValue.string))]
            if let badge { object["appBadge"] = .number(Double(badge)) }
            return .webPush(
                WebPushMessage(
                    endpoint: token,
                    keys: keys,
                    payload: JSONValue.object(object).jsonBytes(),
                    ttlSeconds: WebPushMessage.defaultTTL,
                    urgency: .normal
                )
            )
        case .fcm, .custom:
            var push = FCMPush(token: token, data: fields, notification: .init(title: title, body: body))
            if platform != .fcmWeb { push.android = FCMPush.Android() }
            if iOSFCMPlatforms.contains(platform) { push.apns = FCMPush.APNs(headers: APNsHeaders(.alert), aps: aps) }
            return .fcm(push)
        }
    }

    /// The `cometchat` dictionary of a campaign push.
    public static func campaignFields(_ item: FeedItem) -> [String: String] {
        var fields = [
            "type": "business_messaging", "appId": item.appId, "notificationId": item.id, "uid": item.uid,
            "sentAt": WireTimestamp.format(item.sentAt),
        ]
        if let campaignId = item.campaignId { fields["campaignId"] = campaignId }
        if let pushId = item.pushNotificationId { fields["pushNotificationId"] = pushId }
        return fields
    }
}
