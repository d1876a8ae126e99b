import Foundation

/// One Huawei Push Kit (HMS Core, API v1) message to one token, encoded as the body of
/// `POST /v1/{appId}/messages:send`:
/// `{"validate_only":false,"message":{"data":"<JSON string>","android":{…},"token":["…"]}}`.
/// `data` is a string on the wire (the app parses it); a notification needs a click action.
public struct HMSMessage: Sendable, Encodable, Equatable {
    public var token: String
    public var data: [String: String]?
    public var title: String?
    public var body: String?
    public var urgency: String?
    public var category: String?
    public var ttlSeconds: Int?

    public init(token: String, data: [String: String]? = nil, title: String? = nil, body: String? = nil,
                urgency: String? = nil, category: String? = nil, ttlSeconds: Int? = nil) {
        self.token = token
        self.data = data
        self.title = title
        self.body = body
        self.urgency = urgency
        self.category = category
        self.ttlSeconds = ttlSeconds
    }

    private enum Keys: String, CodingKey {
        case validateOnly = "validate_only", message
        case data, android, token
        case urgency, category, ttl, notification
        case title, body, clickAction = "click_action", type, defaultSound = "default_sound"
    }

    public func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: Keys.self)
        try root.encode(false, forKey: .validateOnly)
        var message = root.nestedContainer(keyedBy: Keys.self, forKey: .message)
        if let data {
            let encoded = try JSONSerialization.data(withJSONObject: data, options: [.sortedKeys, .withoutEscapingSlashes])
            try message.encode(String(decoding: encoded, as: UTF8.self), forKey: .data)
        }
        var android = message.nestedContainer(keyedBy: Keys.self, forKey: .android)
        try android.encodeIfPresent(urgency, forKey: .urgency)
        try android.encodeIfPresent(category, forKey: .category)
        try android.encodeIfPresent(ttlSeconds.map { "\($0)s" }, forKey: .ttl)
        if title != nil || body != nil {
            var notification = android.nestedContainer(keyedBy: Keys.self, forKey: .notification)
            try notification.encodeIfPresent(title, forKey: .title)
            try notification.encodeIfPresent(body, forKey: .body)
            try notification.encode(true, forKey: .defaultSound)
            // Type 3: open the app's launcher activity when tapped.
            var click = notification.nestedContainer(keyedBy: Keys.self, forKey: .clickAction)
            try click.encode(3, forKey: .type)
        }
        try message.encode([token], forKey: .token)
    }
}
