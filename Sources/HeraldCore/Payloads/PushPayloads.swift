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
        }
    }

    /// CometChat's custom provider envelope, one per recipient.
    public static func webhook(_ context: PushContext, uid: String) -> OutgoingPush {
        .webhook(WebhookEnvelope(uid: uid, notificationDetails: context.details, appId: context.event.app.id, region: context.event.app.region))
    }

    // MARK: APNs

    /// CometChat iOS: the notification details (with the `message` dictionary) beside `aps`. VoIP pushes
    /// carry the details for CallKit; background updates carry `content-available` only.
    public static func apns(_ context: PushContext, token: String, route: PushRoute, provider: APNsSettings?) -> APNsPush {
        let fields: JSONObject = context.sendbird ? ["sendbird": .object(SendbirdPayload.object(context))] : context.details
        let expiration = APNsExpiration(context.expiresAt)
        switch route {
        case .alert:
            let aps = alertAPS(context, contentAvailable: provider?.contentAvailable == true, mutableContent: provider?.mutableContent == true)
            return APNsPush(
                deviceToken: token,
                headers: APNsHeaders(.alert, expiration: expiration, collapseId: context.event.collapseId),
                aps: aps,
                fields: fields
            )
        case .voip:
            return APNsPush(deviceToken: token, headers: APNsHeaders(.voip, expiration: expiration), aps: .empty, fields: fields)
        case .background:
            return APNsPush(deviceToken: token, headers: APNsHeaders(.background, expiration: expiration), aps: .silent, fields: fields)
        }
    }

    /// `aps` of a visible notification: alert, badge, sound, the credential's toggles, and the
    /// conversation as `thread-id` so that iOS groups it.
    static func alertAPS(_ context: PushContext, contentAvailable: Bool, mutableContent: Bool) -> APS {
        APS(
            alert: context.sendbird ? .plain(context.text.body) : alert(context),
            badge: context.shownBadge,
            sound: "default",
            threadId: context.event.conversationId.isEmpty ? nil : context.event.conversationId,
            contentAvailable: contentAvailable,
            mutableContent: mutableContent
        )
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
        let collapse = route == .alert ? context.event.collapseId : nil
        var push = FCMPush(token: token, data: dataFields(context))
        if visible { push.notification = .init(title: context.text.title, body: context.text.body) }
        if platform == .fcmWeb {
            push.webpush = FCMPush.WebPush(ttlSeconds: context.ttlSeconds)
            if visible {
                push.webpush?.title = context.text.title
                push.webpush?.body = context.text.body
                push.webpush?.icon = context.event.sender.avatar
            }
        } else {
            push.android = FCMPush.Android(
                collapseKey: collapse,
                ttlSeconds: context.ttlSeconds,
                notificationCount: visible ? context.shownBadge : nil
            )
        }
        if iOSFCMPlatforms.contains(platform) {
            let kind: APNsPushKind = route == .background ? .background : .alert
            let aps = route == .background ? APS.silent : alertAPS(context, contentAvailable: false, mutableContent: true)
            push.apns = FCMPush.APNs(headers: APNsHeaders(kind, expiration: APNsExpiration(context.expiresAt), collapseId: collapse), aps: aps)
        }
        return push
    }

    /// FCM/HMS data: CometChat's details, or Sendbird's `sendbird`, `push_title` and `message`.
    static func dataFields(_ context: PushContext) -> [String: String] {
        guard context.sendbird else { return NotificationDetails.strings(context.details) }
        let object = SendbirdPayload.object(context)
        return ["sendbird": (try? JSONValue.object(object).jsonText()) ?? "{}", "push_title": context.text.title, "message": context.text.body]
    }

    /// The FCM platforms whose tokens belong to iOS apps.
    static let iOSFCMPlatforms: Set<PushPlatform> = [.fcmIOS, .fcmFlutterIOS, .fcmReactNativeIOS, .fcmIonicCordovaIOS]

    // MARK: HMS

    public static func hms(_ context: PushContext, token: String, route: PushRoute, provider: ProviderSettings) -> HMSPush {
        let visible = provider.includesNotification && route != .background
        return HMSPush(
            token: token,
            data: dataFields(context),
            title: visible ? context.text.title : nil,
            body: visible ? context.text.body : nil,
            urgency: context.event.isCall ? .high : nil,
            category: context.event.isCall ? "VOIP" : nil,
            ttlSeconds: context.ttlSeconds
        )
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
        }
    }
}
