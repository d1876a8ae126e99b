import Foundation
import HeraldModels

/// A Huawei Push Kit (HMS Core, API v1) message to one token: a data message, shown as a
/// notification when a title or body is given. Its body for `POST /v1/{appId}/messages:send` is
/// `{"validate_only":false,"message":{"data":"<JSON string>","android":{…},"token":["…"]}}`.
public struct HMSPush: Sendable, Equatable {
    /// `android.urgency`.
    public enum Urgency: String, Sendable {
        case high = "HIGH"
        case normal = "NORMAL"
    }

    public var token: String
    public var data: [String: String]
    public var title: String?
    public var body: String?
    /// Nil leaves Huawei's default.
    public var urgency: Urgency?
    /// `android.category` (`IM`, `VOIP`, …), which Huawei requires for high-urgency messages.
    public var category: String?
    /// Seconds the message may wait for an offline device.
    public var ttlSeconds: Int?

    public init(
        token: String,
        data: [String: String] = [:],
        title: String? = nil,
        body: String? = nil,
        urgency: Urgency? = nil,
        category: String? = nil,
        ttlSeconds: Int? = nil
    ) {
        self.token = token
        self.data = data
        self.title = title
        self.body = body
        self.urgency = urgency
        self.category = category
        self.ttlSeconds = ttlSeconds
    }

    /// The request body. `data` travels as one JSON string (the app parses it); a notification
    /// needs a click action (type 3: open the app).
    public var requestBody: JSONObject {
        var message: JSONObject = ["token": .array([.string(token)])]
        if !data.isEmpty {
            let text = String(decoding: JSONValue.object(data.mapValues(JSONValue.string)).jsonBytes(sortedKeys: true), as: UTF8.self)
            message["data"] = .string(text)
        }
        var android: JSONObject = [:]
        if let urgency { android["urgency"] = .string(urgency.rawValue) }
        if let category { android["category"] = .string(category) }
        if let ttlSeconds { android["ttl"] = .string("\(ttlSeconds)s") }
        if title != nil || body != nil {
            var notification: JSONObject = ["default_sound": .bool(true), "click_action": .object(["type": .number(3)])]
            if let title { notification["title"] = .string(title) }
            if let body { notification["body"] = .string(body) }
            android["notification"] = .object(notification)
        }
        message["android"] = .object(android)
        return ["validate_only": .bool(false), "message": .object(message)]
    }
}
