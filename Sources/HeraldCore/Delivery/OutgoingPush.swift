import Foundation
import HeraldModels

/// A push ready for a provider, in Core's own terms. Provider adapters turn it into wire requests.
public enum OutgoingPush: Sendable, Equatable {
    case apns(APNsPush)
    case fcm(FCMPush)
    case webhook(WebhookEnvelope)
    case hms(HMSPush)

    public struct APNsPush: Sendable, Equatable {
        public var deviceToken: String
        /// `alert`, `background`, `voip`, …
        public var pushType: String
        public var payload: JSONObject
        public var priority: Int?
        public var collapseId: String?
        /// When APNs may stop trying to reach the device.
        public var expiration: Date?

        public init(deviceToken: String, pushType: String, payload: JSONObject, priority: Int? = nil, collapseId: String? = nil, expiration: Date? = nil) {
            self.deviceToken = deviceToken
            self.pushType = pushType
            self.payload = payload
            self.priority = priority
            self.collapseId = collapseId
            self.expiration = expiration
        }
    }

    public struct FCMPush: Sendable, Equatable {
        public var token: String
        public var data: [String: String]
        public var title: String?
        public var body: String?
        public var android: JSONObject?
        public var apns: JSONObject?
        public var webpush: JSONObject?

        public init(token: String, data: [String: String], title: String? = nil, body: String? = nil,
                    android: JSONObject? = nil, apns: JSONObject? = nil, webpush: JSONObject? = nil) {
            self.token = token
            self.data = data
            self.title = title
            self.body = body
            self.android = android
            self.apns = apns
            self.webpush = webpush
        }
    }
}

extension OutgoingPush {
    /// A Huawei Push Kit message to one token: a data message (`data`, sent as one JSON string),
    /// shown as a notification when a title or body is given.
    public struct HMSPush: Sendable, Equatable {
        public var token: String
        public var data: [String: String]
        public var title: String?
        public var body: String?
        /// `HIGH` or `NORMAL` (`android.urgency`); nil leaves Huawei's default.
        public var urgency: String?
        /// `android.category` (`IM`, `VOIP`, …), needed by Huawei for high-priority messages.
        public var category: String?
        /// Seconds the message may wait for an offline device.
        public var ttlSeconds: Int?

        public init(token: String, data: [String: String], title: String? = nil, body: String? = nil,
                    urgency: String? = nil, category: String? = nil, ttlSeconds: Int? = nil) {
            self.token = token
            self.data = data
            self.title = title
            self.body = body
            self.urgency = urgency
            self.category = category
            self.ttlSeconds = ttlSeconds
        }
    }
}

extension PushGateway {
    public func send(_ pushes: [OutgoingPush], credential: ProviderCredential) async -> [PushResult] {
        await withTaskGroup(of: (Int, PushResult).self) { group in
            for (index, push) in pushes.enumerated() {
                group.addTask { (index, await send(push, credential: credential)) }
            }
            var results = [PushResult](repeating: PushResult(outcome: .failed), count: pushes.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }
}
