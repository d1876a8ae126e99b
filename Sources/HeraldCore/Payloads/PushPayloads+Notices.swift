import Foundation
import HeraldModels

/// The pushes that take notifications away: a clear (the conversation was read on another
/// device) and a retract (the message was deleted). Silent everywhere — APNs background pushes
/// (priority 5), FCM and HMS data messages — carrying `{"herald":{"type":"clear"|"retract",…}}`
/// (FCM and HMS: the same fields as data) for the app to remove what it shows; a clear also sets
/// the badge to the user's unread total after the read.
extension PushPayloads {
    /// What a clear or retract says, as the app reads it.
    public static func noticeFields(_ kind: PushStyle.Kind, _ event: ResolvedEvent) -> [String: String] {
        var fields = ["type": kind.rawValue, "conversationId": event.conversationId]
        switch event.event.body {
        case .read(let read):
            if let upTo = read.messageId { fields["upToMessageId"] = upTo }
        case .message(let message):
            fields["messageId"] = message.idText
        default:
            break
        }
        return fields
    }

    /// A clear or retract to one target.
    public static func notice(
        _ kind: PushStyle.Kind,
        of event: ResolvedEvent,
        target: DeliveryTarget,
        uid: String,
        platform: PushPlatform?,
        badge: Int?,
        expiresAt: Date?,
        now: Date,
        keys: PushEncryptionKeys? = nil
    ) -> OutgoingPush? {
        let fields = noticeFields(kind, event)
        let ttl = expiresAt.map { max(0, Int($0.timeIntervalSince(now).rounded(.up))) }
        switch target {
        case .webhook:
            var details = fields.mapValues(JSONValue.string)
            if let badge { details["badge"] = .number(Double(badge)) }
            let trigger = kind == .clear ? WebhookEnvelope.clearTrigger : WebhookEnvelope.retractTrigger
            return .webhook(WebhookEnvelope(uid: uid, notificationDetails: details, appId: event.app.id, region: event.app.region, trigger: trigger))
        case .token(let token):
            guard let platform else { return nil }
            let aps = APS(badge: badge, contentAvailable: true)
            let headers = APNsHeaders(.background, expiration: APNsExpiration(expiresAt))
            switch platform.tokenKind {
            case .apnsVoIP:
                return nil
            case .apnsDevice:
                return .apns(
                    APNsPush(deviceToken: token, headers: headers, aps: aps, fields: ["herald": .object(fields.mapValues(JSONValue.string))])
                )
            case .fcm:
                var push = FCMPush(token: token, data: fields)
                if platform == .fcmWeb {
                    push.webpush = FCMPush.WebPush(ttlSeconds: ttl)
                } else {
                    // Normal priority: nothing is shown, so nothing needs waking the device at once.
                    push.android = FCMPush.Android(highPriority: false, ttlSeconds: ttl)
                }
                if iOSFCMPlatforms.contains(platform) { push.apns = FCMPush.APNs(headers: headers, aps: aps) }
                return .fcm(push)
            case .hms:
                return .hms(HMSPush(token: token, data: fields, ttlSeconds: ttl))
            case .webPush:
                return nil
            case .unifiedPush:
                var fields = fields
                if let badge { fields["badge"] = String(badge) }
                return .webPush(webPushNotice(fields, endpoint: token, keys: keys, ttlSeconds: ttl))
            }
        case .inApp, .none:
            return nil
        }
    }
}
