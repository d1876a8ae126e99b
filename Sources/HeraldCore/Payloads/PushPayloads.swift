import Foundation
import HeraldModels

/// Everything a push of an event to one recipient is made of.
public struct PushContext: Sendable {
    public var event: ResolvedEvent
    public var text: RenderedText
    public var settings: PushSettings
    /// The recipient's unread count (the badge), when badges are on.
    public var badge: Int?
    /// The conversation's unread count.
    public var unread: Int?
    public var expiresAt: Date?
    /// The time the push is made (TTLs count from it).
    public var now: Date

    public init(event: ResolvedEvent, text: RenderedText, settings: PushSettings, badge: Int? = nil, unread: Int? = nil, expiresAt: Date? = nil, now: Date) {
        self.event = event
        self.now = now
        self.text = text
        self.settings = settings
        self.badge = badge
        self.unread = unread
        self.expiresAt = expiresAt
    }

    var details: JSONObject { NotificationDetails.build(event, text: text, settings: settings, unread: unread) }
    /// Seconds left to live, for FCM's and HMS's TTL.
    var ttlSeconds: Int? { expiresAt.map { max(0, Int($0.timeIntervalSince(now).rounded(.up))) } }
    var sendbird: Bool { settings.payloadFormat == .sendbird && event.event.kind != .call }
}

/// The payload of each push, exactly in the shapes CometChat, Sendbird and Kandy document. Pure functions of their
/// inputs: the golden tests pin them.
public enum PushPayloads {
    /// The push for one token.
    public static func push(_ context: PushContext, token: String, platform: PushPlatform, route: PushRoute, provider: ProviderConfig) -> OutgoingPush {
        switch platform.tokenKind.providerKind {
        case .apns: .apns(apns(context, token: token, route: route, provider: provider))
        case .fcm: .fcm(fcm(context, token: token, platform: platform, route: route, provider: provider))
        case .hms: .hms(hms(context, token: token, route: route, provider: provider))
        case .custom: webhook(context, uid: token)
        }
    }

    /// CometChat's custom provider envelope, one per recipient.
    public static func webhook(_ context: PushContext, uid: String) -> OutgoingPush {
        .webhook(WebhookEnvelope(uid: uid, notificationDetails: context.details, appId: context.event.app.id, region: context.event.app.region))
    }

    // MARK: APNs

    /// CometChat iOS: the notification details (with the `message` dictionary) beside `aps`. VoIP pushes
    /// carry the details for CallKit; background updates carry `content-available` only.
    public static func apns(_ context: PushContext, token: String, route: PushRoute, provider: ProviderConfig) -> OutgoingPush.APNsPush {
        var payload: JSONObject
        if context.sendbird {
            payload = ["sendbird": .object(SendbirdPayload.object(context))]
        } else {
            payload = context.details
        }
        switch route {
        case .alert:
            payload["aps"] = .object(aps(context, provider: provider, mutableContent: provider.mutableContent == true))
            return .init(deviceToken: token, pushType: "alert", payload: payload, priority: 10,
                         collapseId: context.event.collapseId, expiration: context.expiresAt)
        case .voip:
            payload["aps"] = .object([:])
            return .init(deviceToken: token, pushType: "voip", payload: payload, priority: 10, expiration: context.expiresAt)
        case .background:
            payload["aps"] = .object(["content-available": .number(1)])
            return .init(deviceToken: token, pushType: "background", payload: payload, priority: 5, expiration: context.expiresAt)
        }
    }

    /// `aps` of a visible notification: alert, badge, sound, the credential's toggles, and the
    /// conversation as `thread-id` so that iOS groups it.
    static func aps(_ context: PushContext, provider: ProviderConfig?, mutableContent: Bool) -> JSONObject {
        var aps: JSONObject = ["alert": alert(context), "sound": .string("default")]
        if context.sendbird { aps["alert"] = .string(context.text.body) }
        if context.settings.badge, let badge = context.badge { aps["badge"] = .number(Double(badge)) }
        if mutableContent { aps["mutable-content"] = .number(1) }
        if provider?.contentAvailable == true { aps["content-available"] = .number(1) }
        if !context.event.conversationId.isEmpty { aps["thread-id"] = .string(context.event.conversationId) }
        return aps
    }

    /// `{title, body}`, or in localisation mode Kandy's keys and args.
    static func alert(_ context: PushContext) -> JSONValue {
        let text = context.text
        guard context.settings.localizationKeys, let titleKey = text.titleLocKey else {
            return .object(["title": .string(text.title), "body": .string(text.body)])
        }
        var alert: JSONObject = ["title-loc-key": .string(titleKey)]
        if let args = text.titleLocArgs, !args.isEmpty { alert["title-loc-args"] = .array(args.map { .string($0) }) }
        if let key = text.locKey {
            alert["loc-key"] = .string(key)
            if let args = text.locArgs, !args.isEmpty { alert["loc-args"] = .array(args.map { .string($0) }) }
        } else {
            alert["body"] = .string(text.body)
        }
        return .object(alert)
    }

    // MARK: FCM

    /// Data messages (string values; objects as JSON text), a `notification` when the credential
    /// says so, `android.priority` `HIGH` (the v1 API's `AndroidMessagePriority` names), an `apns`
    /// block for iOS tokens, and for the web a `webpush` block (`Urgency`, `TTL`) and no `android`.
    public static func fcm(_ context: PushContext, token: String, platform: PushPlatform, route: PushRoute, provider: ProviderConfig) -> OutgoingPush.FCMPush {
        let data = dataFields(context)
        let visible = provider.includeNotificationKey == true && route != .background
        let ttl = context.ttlSeconds
        var android: JSONObject = ["priority": .string(androidHighPriority)]
        if let collapse = context.event.collapseId, route == .alert { android["collapse_key"] = .string(collapse) }
        if let ttl { android["ttl"] = .string("\(ttl)s") }
        if visible, context.settings.badge, let badge = context.badge { android["notification"] = .object(["notification_count": .number(Double(badge))]) }
        var apnsBlock: JSONObject?
        if Self.iOSFCMPlatforms.contains(platform) {
            var headers: JSONObject = ["apns-priority": .string(route == .background ? "5" : "10"),
                                       "apns-push-type": .string(route == .background ? "background" : "alert")]
            if let collapse = context.event.collapseId, route == .alert { headers["apns-collapse-id"] = .string(collapse) }
            if let expires = context.expiresAt { headers["apns-expiration"] = .string(String(Int(expires.timeIntervalSince1970))) }
            let aps: JSONObject = route == .background ? ["content-available": .number(1)] : aps(context, provider: nil, mutableContent: true)
            apnsBlock = ["headers": .object(headers), "payload": .object(["aps": .object(aps)])]
        }
        var webpush: JSONObject?
        if platform == .fcmWeb {
            var block: JSONObject = ["headers": .object(["Urgency": .string("high")])]
            if let ttl { block["headers"] = .object(["Urgency": .string("high"), "TTL": .string(String(ttl))]) }
            if visible {
                var notification: JSONObject = ["title": .string(context.text.title), "body": .string(context.text.body)]
                if let icon = context.event.sender.avatar { notification["icon"] = .string(icon) }
                block["notification"] = .object(notification)
            }
            webpush = block
        }
        return .init(token: token, data: data, title: visible ? context.text.title : nil, body: visible ? context.text.body : nil,
                     android: platform == .fcmWeb ? nil : android, apns: apnsBlock, webpush: webpush)
    }

    /// FCM/HMS data: CometChat's details, or Sendbird's `sendbird`, `push_title` and `message`.
    static func dataFields(_ context: PushContext) -> [String: String] {
        guard context.sendbird else { return NotificationDetails.strings(context.details) }
        let object = SendbirdPayload.object(context)
        return ["sendbird": (try? JSONValue.object(object).jsonText()) ?? "{}", "push_title": context.text.title, "message": context.text.body]
    }

    /// FCM v1's `AndroidMessagePriority` for messages that must wake the device (the other is `NORMAL`).
    static let androidHighPriority = "HIGH"

    /// The FCM platforms whose tokens belong to iOS apps.
    static let iOSFCMPlatforms: Set<PushPlatform> = [.fcmIOS, .fcmFlutterIOS, .fcmReactNativeIOS, .fcmIonicCordovaIOS]

    // MARK: HMS

    public static func hms(_ context: PushContext, token: String, route: PushRoute, provider: ProviderConfig) -> OutgoingPush.HMSPush {
        let visible = provider.includeNotificationKey == true && route != .background
        return .init(token: token, data: dataFields(context), title: visible ? context.text.title : nil, body: visible ? context.text.body : nil,
                     urgency: context.event.isCall ? "HIGH" : nil, category: context.event.isCall ? "VOIP" : nil,
                     ttlSeconds: context.ttlSeconds)
    }

    // MARK: Sessions

    /// Kandy's silent notification: the session is gone, so the app can sign in again. A
    /// background push with no alert; VoIP tokens are never used for it (iOS would expect a call).
    public static func sessionEnded(_ event: SessionEvent, device: SessionEvent.Device, expiresAt: Date?) -> OutgoingPush? {
        let fields: [String: String] = ["type": "session", "action": event.reason, "sessionId": event.sessionId, "uid": event.uid]
        switch device.platform.tokenKind {
        case .apnsVoIP:
            return nil
        case .apnsDevice:
            var payload: JSONObject = fields.mapValues { .string($0) }
            payload["aps"] = .object(["content-available": .number(1)])
            return .apns(.init(deviceToken: device.token, pushType: "background", payload: payload, priority: 5, expiration: expiresAt))
        case .fcm:
            var apnsBlock: JSONObject?
            if iOSFCMPlatforms.contains(device.platform) {
                apnsBlock = ["headers": .object(["apns-priority": .string("5"), "apns-push-type": .string("background")]),
                             "payload": .object(["aps": .object(["content-available": .number(1)])])]
            }
            return .fcm(.init(token: device.token, data: fields, android: device.platform == .fcmWeb ? nil : ["priority": .string(androidHighPriority)],
                              apns: apnsBlock))
        case .hms:
            return .hms(.init(token: device.token, data: fields))
        }
    }
}
