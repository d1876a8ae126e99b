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
    /// Sent only when the provider's `includeNotificationKey` is on (seed 000).
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
