import Foundation
import HeraldModels

/// The payload of each push, exactly in the shapes CometChat, Sendbird and Kandy document. Pure functions of their
/// inputs: the golden tests pin them.
public enum PushPayloads {
    /// The push for one token.
    public static func push(
        _ context: PushContext,
        token: String,
        platform: PushPlatform,
        route: PushRoute,
        provider: ProviderSettings
    ) -> OutgoingPush {
        switch platform.tokenKind.providerKind {
        case .apns: .apns(apns(context, token: token, route: route, provider: provider.apns))
        case .fcm: .fcm(fcm(context, token: token, platform: platform, route: route, provider: provider))
        case .hms: .hms(hms(context, token: token, route: route, provider: provider))
        case .custom: webhook(context, uid: token)
        case .webpush: .webPush(webPush(context, endpoint: token, route: route))
        }
    }

    /// CometChat's custom provider envelope, one per recipient.
    public static func webhook(_ context: PushContext, uid: String) -> OutgoingPush {
        .webhook(
            WebhookEnvelope(uid: uid, notificationDetails: context.details.object, appId: context.event.app.id, region: context.event.app.region)
        )
    }

    // MARK: APNs

    /// CometChat iOS: the notification details (with the `message` dictionary) beside `aps`. VoIP pushes
    /// carry the details for CallKit; background updates carry `content-available` only. In the
    /// private content modes an alert says "New message" and carries only ids (``privateAPNs(_:token:)``).
    public static func apns(_ context: PushContext, token: String, route: PushRoute, provider: APNsSettings?) -> APNsPush {
        let fields: APNsPush.Fields = context.sendbird ? .object(["sendbird": .object(SendbirdPayload.object(context))]) : .details(context.details)
        let expiration = APNsExpiration(context.expiresAt)
        switch route {
        case .alert:
            let headers = APNsHeaders(.alert, expiration: expiration, collapseId: context.collapseId)
            if context.contentMode != .full { return shieldedAPNs(context, token: token, headers: headers, provider: provider) }
            let aps = alertAPS(context, contentAvailable: provider?.contentAvailable == true, mutableContent: provider?.mutableContent == true)
            return APNsPush(deviceToken: token, headers: headers, aps: aps, content: fields)
        case .voip:
            return APNsPush(deviceToken: token, headers: APNsHeaders(.voip, expiration: expiration), aps: .empty, content: fields)
        case .background:
            return APNsPush(deviceToken: token, headers: APNsHeaders(.background, expiration: expiration), aps: .silent, content: fields)
        }
    }

    /// `aps` of a visible notification: alert, badge, sound, the credential's toggles, the
    /// conversation as `thread-id` so that iOS groups it, and how far it breaks through
    /// (``Importance``).
    static func alertAPS(_ context: PushContext, contentAvailable: Bool, mutableContent: Bool) -> APS {
        let importance = context.importance
        return APS(
            alert: context.sendbird ? .plain(context.text.body) : alert(context),
            badge: context.shownBadge,
            sound: "default",
            threadId: context.event.conversationId.isEmpty ? nil : context.event.conversationId,
            contentAvailable: contentAvailable,
            mutableContent: mutableContent,
            interruptionLevel: importance.level,
            relevanceScore: importance.relevance
        )
    }

    /// The body localisation key of the private content modes' alert ("New message"); the app's
    /// `Localizable.strings` says it in the user's language, and its Notification Service
    /// Extension replaces it with the message.
    public static let newMessageKey = "newMessageNotification_body"
    /// What the private modes show where a localised key cannot be given (FCM and HMS).
    public static let newMessageText = "New message"

    /// `aps` of an `idOnly` alert: "New message" by key, `mutable-content` for the extension,
    /// badge, sound, the conversation's thread and the importance.
    static func privateAPS(_ context: PushContext) -> APS {
        let importance = context.importance
        return APS(
            alert: .key(newMessageKey),
            badge: context.shownBadge,
            sound: "default",
            threadId: context.event.conversationId.isEmpty ? nil : context.event.conversationId,
            mutableContent: true,
            interruptionLevel: importance.level,
            relevanceScore: importance.relevance
        )
    }

    /// The ids an `idOnly` push carries for the app to fetch the message by: the event's kind,
    /// the conversation, the sender and the message (when there is one).
    public static func ids(_ context: PushContext) -> [String: String] {
        var ids = ["type": context.event.templateType.rawValue, "conversationId": context.event.conversationId, "sender": context.event.sender.uid]
        if let messageId = context.event.messageId { ids["messageId"] = messageId }
        return ids
    }

    /// An alert in a private content mode: `encrypted` seals the whole notification (as `full`
    /// would send it) to the device's key and sends `{"aps":{"alert":{"loc-key"},"mutable-content":1},
    /// "herald":{"enc":"<base64url aes128gcm>"}}` — not even the conversation as `thread-id`;
    /// `idOnly` (and `encrypted` for a device without a key) sends the ids.
    static func shieldedAPNs(_ context: PushContext, token: String, headers: APNsHeaders, provider: APNsSettings?) -> APNsPush {
        let sealed = sealedNotification(context) { full in
            apns(full, token: token, route: .alert, provider: provider).payloadBytes
        }
        if let sealed {
            var aps = privateAPS(context)
            aps.threadId = nil
            return APNsPush(deviceToken: token, headers: headers, aps: aps, fields: ["herald": .object(["enc": .string(sealed)])])
        }
        return APNsPush(deviceToken: token, headers: headers, aps: privateAPS(context), fields: idFields(context))
    }

    /// In the `encrypted` mode, the notification `full` would send (made by `plaintext`), sealed
    /// with RFC 8291 to the device's key, in base64url; nil otherwise, or when it cannot be sealed
    /// (then the push carries ids only).
    static func sealedNotification(_ context: PushContext, _ plaintext: (PushContext) -> [UInt8]) -> String? {
        guard context.contentMode == .encrypted, let keys = context.style.sealedTo else { return nil }
        var full = context
        full.style.contentMode = .full
        guard let sealed = try? keys.seal(plaintext(full)) else { return nil }
        return Base64URL.encode(Data(sealed))
    }

    /// FCM's and HMS's data in a private mode: `{"enc": …}` sealed, or the ids.
    static func shieldedData(_ context: PushContext) -> [String: String] {
        let sealed = sealedNotification(context) { full in JSONValue.object(dataFields(full).mapValues(JSONValue.string)).jsonBytes() }
        return sealed.map { ["enc": $0] } ?? ids(context)
    }

    /// `{"herald": {ids}}` beside `aps`.
    static func idFields(_ context: PushContext) -> JSONObject {
        ["herald": .object(ids(context).mapValues(JSONValue.string))]
    }

    /// `{title, body}`, or in localisation mode Kandy's keys and args.
    static func alert(_ context: PushContext) -> APS.Alert {
        let text = context.text
        guard context.settings.localizationKeys, let titleKey = text.titleLocKey else { return .text(title: text.title, body: text.body) }
        return .localized(
            .init(
                titleLocKey: titleKey,
                titleLocArgs: text.titleLocArgs ?? [],
                locKey: text.locKey,
                locArgs: text.locArgs ?? [],
                body: text.body
            )
        )
    }

    // MARK: FCM

    /// Data messages (string values; objects as JSON text), a `notification` when the credential
    /// says so, `android.priority` `HIGH`, an `apns` block for iOS tokens, and for the web a
    /// `webpush` block (`Urgency`, `TTL`) and no `android`.
    public static func fcm(_ context: PushContext, token: String, platform: PushPlatform, route: PushRoute, provider: ProviderSettings) -> FCMPush {
        let visible = provider.includesNotification && route != .background
        let collapse = route == .alert ? context.collapseId : nil
        let shielded = context.contentMode != .full && route == .alert
        var push = FCMPush(token: token, data: shielded ? shieldedData(context) : dataFields(context))
        let title: String? = shielded ? nil : context.text.title
        let body = shielded ? newMessageText : context.text.body
        if visible { push.notification = .init(title: title, body: body) }
        if platform == .fcmWeb {
            push.webpush = FCMPush.WebPush(ttlSeconds: context.ttlSeconds)
            if visible {
                push.webpush?.title = title
                push.webpush?.body = body
                push.webpush?.icon = shielded ? nil : context.event.sender.avatar
            }
        } else {
            push.android = FCMPush.Android(
                collapseKey: collapse,
                ttlSeconds: context.ttlSeconds,
                notificationCount: visible ? context.shownBadge : nil,
                tag: visible ? context.conversationTag : nil,
                channelId: visible ? context.androidChannel : nil
            )
        }
        if iOSFCMPlatforms.contains(platform) {
            let kind: APNsPushKind = route == .background ? .background : .alert
            var aps =
                route == .background ? APS.silent : shielded ? privateAPS(context) : alertAPS(context, contentAvailable: false, mutableContent: true)
            if shielded && push.data["enc"] != nil { aps.threadId = nil }
            push.apns = FCMPush.APNs(headers: APNsHeaders(kind, expiration: APNsExpiration(context.expiresAt), collapseId: collapse), aps: aps)
        }
        return push
    }

    /// FCM/HMS data: CometChat's details, or Sendbird's `sendbird`, `push_title` and `message`.
    static func dataFields(_ context: PushContext) -> [String: String] {
        guard context.sendbird else { return NotificationDetails.strings(context.details.object) }
        let object = SendbirdPayload.object(context)
        return ["sendbird": (try? JSONValue.object(object).jsonText()) ?? "{}", "push_title": context.text.title, "message": context.text.body]
    }

    /// The FCM platforms whose tokens belong to iOS apps.
    static let iOSFCMPlatforms: Set<PushPlatform> = [.fcmIOS, .fcmFlutterIOS, .fcmReactNativeIOS, .fcmIonicCordovaIOS]

    // MARK: HMS

    public static func hms(_ context: PushContext, token: String, route: PushRoute, provider: ProviderSettings) -> HMSPush {
        let visible = provider.includesNotification && route != .background
        let shielded = context.contentMode != .full && route == .alert
        return HMSPush(
            token: token,
            data: shielded ? shieldedData(context) : dataFields(context),
            title: visible && !shielded ? context.text.title : nil,
            body: visible ? (shielded ? newMessageText : context.text.body) : nil,
            urgency: context.event.isCall ? .high : nil,
            category: context.event.isCall ? "VOIP" : nil,
            ttlSeconds: context.ttlSeconds
        )
    }

    // MARK: Sessions

    /// Kandy's silent notification: the session is gone, so the app can sign in again. A
    /// background push with no alert; VoIP tokens are never used for it (iOS would expect a call).
    public static func sessionEnded(
        _ event: SessionEvent,
        device: SessionEvent.Device,
        expiresAt: Date?,
        keys: PushEncryptionKeys? = nil
    ) -> OutgoingPush? {
        let fields: [String: String] = ["type": "session", "action": event.reason, "sessionId": event.sessionId, "uid": event.uid]
        switch device.platform.tokenKind {
        case .apnsVoIP:
            return nil
        case .apnsDevice:
            return .apns(
                APNsPush(
                    deviceToken: device.token,
                    headers: APNsHeaders(.background, expiration: APNsExpiration(expiresAt)),
                    aps: .silent,
                    fields: fields.mapValues(JSONValue.string)
                )
            )
        case .fcm:
            var push = FCMPush(token: device.token, data: fields)
            if device.platform != .fcmWeb { push.android = FCMPush.Android() }
            if iOSFCMPlatforms.contains(device.platform) { push.apns = FCMPush.APNs(headers: APNsHeaders(.background), aps: .silent) }
            return .fcm(push)
        case .hms:
            return .hms(HMSPush(token: device.token, data: fields))
        case .webPush:
            return nil
        case .unifiedPush:
            let ttl = expiresAt.map { max(0, Int($0.timeIntervalSinceNow.rounded(.up))) }
            return .webPush(webPushNotice(fields, endpoint: device.token, keys: keys, ttlSeconds: ttl))
        }
    }
}
