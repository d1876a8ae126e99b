import Foundation
import HeraldModels

extension PushPayloads {
    /// CometChat Campaigns' campaign push: `aps` with the alert, the badge when set and `mutable-content`
    /// (so a Notification Service Extension can report it delivered), and the `cometchat`
    /// dictionary of type `business_messaging`. FCM and HMS carry the same fields as data (with
    /// the title and body as a notification); FCM's iOS tokens get the `aps` block too.
    public static func campaign(_ item: FeedItem, token: String, platform: PushPlatform, badge: Int?) -> OutgoingPush {
        let fields = campaignFields(item)
        let title = item.pushTitle ?? ""
        let body = item.pushBody ?? ""
        var aps: JSONObject = ["alert": .object(["title": .string(title), "body": .string(body)]), "mutable-content": .number(1)]
        if let badge { aps["badge"] = .number(Double(badge)) }
        switch platform.tokenKind.providerKind {
        case .apns:
            let payload: JSONObject = ["aps": .object(aps), "cometchat": .object(fields.mapValues(JSONValue.string))]
            return .apns(.init(deviceToken: token, pushType: "alert", payload: payload, priority: 10, collapseId: nil, expiration: nil))
        case .hms:
            return .hms(.init(token: token, data: fields, title: title, body: body))
        case .fcm, .custom:
            var apnsBlock: JSONObject?
            if iOSFCMPlatforms.contains(platform) {
                apnsBlock = ["headers": .object(["apns-priority": .string("10"), "apns-push-type": .string("alert")]),
                             "payload": .object(["aps": .object(aps)])]
            }
            let android: JSONObject? = platform == .fcmWeb ? nil : ["priority": .string(androidHighPriority)]
            return .fcm(.init(token: token, data: fields, title: title, body: body, android: android, apns: apnsBlock))
        }
    }

    /// The `cometchat` dictionary of a campaign push.
    public static func campaignFields(_ item: FeedItem) -> [String: String] {
        var fields = ["type": "business_messaging", "appId": item.appId, "notificationId": item.id, "uid": item.uid,
                      "sentAt": WireTimestamp.format(item.sentAt)]
        if let campaignId = item.campaignId { fields["campaignId"] = campaignId }
        if let pushId = item.pushNotificationId { fields["pushNotificationId"] = pushId }
        return fields
    }
}
