import Foundation
import HeraldModels

/// One FCM HTTP v1 message to one registration token: data (string values), an optional
/// notification, and the per-platform blocks — Android's, APNs's for iOS apps, the browser's.
public struct FCMPush: Sendable, Equatable {
    public struct Notification: Sendable, Equatable {
        public var title: String?
        public var body: String?

        public init(title: String?, body: String?) {
            self.title = title
            self.body = body
        }
    }

    /// `android`: the priority, collapse key, time to live and the badge count.
    public struct Android: Sendable, Equatable {
        /// FCM v1's `AndroidMessagePriority`: `HIGH` wakes the device.
        public var highPriority: Bool
        public var collapseKey: String?
        public var ttlSeconds: Int?
        /// `notification.notification_count`, the app icon's badge.
        public var notificationCount: Int?
        /// `notification.tag`: a notification with the same tag replaces the one shown (Herald
        /// tags by conversation, so a conversation is one notification).
        public var tag: String?
        /// `notification.channel_id`: the notification channel it is posted to.
        public var channelId: String?

        public init(
            highPriority: Bool = true,
            collapseKey: String? = nil,
            ttlSeconds: Int? = nil,
            notificationCount: Int? = nil,
            tag: String? = nil,
            channelId: String? = nil
        ) {
            self.highPriority = highPriority
            self.collapseKey = collapseKey
            self.ttlSeconds = ttlSeconds
            self.notificationCount = notificationCount
            self.tag = tag
            self.channelId = channelId
        }
    }

    /// `apns`: how an iOS app's push is handed to APNs.
    public struct APNs: Sendable, Equatable {
        public var headers: APNsHeaders
        public var aps: APS

        public init(headers: APNsHeaders, aps: APS) {
            self.headers = headers
            self.aps = aps
        }
    }

    /// `webpush`: Web Push's `Urgency` and `TTL` headers and the browser's notification.
    public struct WebPush: Sendable, Equatable {
        public var ttlSeconds: Int?
        public var title: String?
        public var body: String?
        public var icon: String?

        public init(ttlSeconds: Int? = nil, title: String? = nil, body: String? = nil, icon: String? = nil) {
            self.ttlSeconds = ttlSeconds
            self.title = title
            self.body = body
            self.icon = icon
        }
    }

    public var token: String
    public var data: [String: String]
    public var notification: Notification?
    public var android: Android?
    public var apns: APNs?
    public var webpush: WebPush?
    /// Merged into the message last (a Matrix binding's `fcmOptions`, Sygnal's `fcm_options`):
    /// objects key by key, other values replacing.
    public var options: JSONObject?

    public init(
        token: String,
        data: [String: String] = [:],
        notification: Notification? = nil,
        android: Android? = nil,
        apns: APNs? = nil,
        webpush: WebPush? = nil
    ) {
        self.token = token
        self.data = data
        self.notification = notification
        self.android = android
        self.apns = apns
        self.webpush = webpush
    }

    /// The v1 API's `message`.
    public var message: JSONObject {
        var message: JSONObject = ["token": .string(token)]
        if !data.isEmpty { message["data"] = .object(data.mapValues(JSONValue.string)) }
        if let notification {
            var fields: JSONObject = [:]
            if let title = notification.title { fields["title"] = .string(title) }
            if let body = notification.body { fields["body"] = .string(body) }
            message["notification"] = .object(fields)
        }
        if let android { message["android"] = .object(android.json) }
        if let apns { message["apns"] = .object(["headers": .object(apns.headers.fcmHeaders), "payload": .object(["aps": .object(apns.aps.json)])]) }
        if let webpush { message["webpush"] = .object(webpush.json) }
        for (key, value) in options ?? [:] {
            if case .object(let extra) = value, case .object(var existing)? = message[key] {
                existing.merge(extra) { $1 }
                message[key] = .object(existing)
            } else {
                message[key] = value
            }
        }
        return message
    }
}

extension FCMPush.Android {
    var json: JSONObject {
        var android: JSONObject = ["priority": .string(highPriority ? "HIGH" : "NORMAL")]
        if let collapseKey { android["collapse_key"] = .string(collapseKey) }
        if let ttlSeconds { android["ttl"] = .string("\(ttlSeconds)s") }
        var notification: JSONObject = [:]
        if let notificationCount { notification["notification_count"] = .number(Double(notificationCount)) }
        if let tag { notification["tag"] = .string(tag) }
        if let channelId { notification["channel_id"] = .string(channelId) }
        if !notification.isEmpty { android["notification"] = .object(notification) }
        return android
    }
}

extension FCMPush.WebPush {
    var json: JSONObject {
        var headers: JSONObject = ["Urgency": .string("high")]
        if let ttlSeconds { headers["TTL"] = .string(String(ttlSeconds)) }
        var block: JSONObject = ["headers": .object(headers)]
        if title != nil || body != nil {
            var notification: JSONObject = [:]
            if let title { notification["title"] = .string(title) }
            if let body { notification["body"] = .string(body) }
            if let icon { notification["icon"] = .string(icon) }
            block["notification"] = .object(notification)
        }
        return block
    }
}
