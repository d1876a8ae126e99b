import HeraldModels

/// One FCM HTTP v1 message to one registration token.
public struct FCMMessage: Sendable, Encodable {
    public struct Notification: Sendable, Encodable, Equatable {
        public var title: String?
        public var body: String?
        public var image: String?

        public init(title: String? = nil, body: String? = nil, image: String? = nil) {
            self.title = title
            self.body = body
            self.image = image
        }
    }

    public var token: String
    /// FCM takes string values only.
    public var data: [String: String]?
    /// Sent only when the provider's `includeNotificationKey` is on (CometChat).
    public var notification: Notification?
    public var android: JSONObject?
    public var apns: JSONObject?
    public var webpush: JSONObject?

    public init(token: String, data: [String: String]? = nil, notification: Notification? = nil,
                android: JSONObject? = nil, apns: JSONObject? = nil, webpush: JSONObject? = nil) {
        self.token = token
        self.data = data
        self.notification = notification
        self.android = android
        self.apns = apns
        self.webpush = webpush
    }
}

extension FCMMessage {
    /// The message as JSON, for the fast writer (the send path encodes thousands a second).
    public var jsonValue: JSONValue {
        var message: JSONObject = ["token": .string(token)]
        if let data { message["data"] = .object(data.mapValues(JSONValue.string)) }
        if let notification {
            var fields: JSONObject = [:]
            if let title = notification.title { fields["title"] = .string(title) }
            if let body = notification.body { fields["body"] = .string(body) }
            if let image = notification.image { fields["image"] = .string(image) }
            message["notification"] = .object(fields)
        }
        if let android { message["android"] = .object(android) }
        if let apns { message["apns"] = .object(apns) }
        if let webpush { message["webpush"] = .object(webpush) }
        return .object(message)
    }
}

