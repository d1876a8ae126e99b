import Foundation
import HeraldModels

/// One APNs notification to one device: its headers (type, priority, expiration, collapse id),
/// its `aps`, and the keys beside `aps` (the notification details, Sendbird's object, a
/// campaign's `cometchat`).
public struct APNsPush: Sendable, Equatable {
    public var deviceToken: String
    public var headers: APNsHeaders
    public var aps: APS
    public var fields: JSONObject

    public init(deviceToken: String, headers: APNsHeaders, aps: APS, fields: JSONObject = [:]) {
        self.deviceToken = deviceToken
        self.headers = headers
        self.aps = aps
        self.fields = fields
    }

    /// The whole payload: the fields with `aps`.
    public var payload: JSONObject {
        var payload = fields
        payload["aps"] = .object(aps.json)
        return payload
    }
}

/// The request headers APNs reads a notification's handling from.
public struct APNsHeaders: Sendable, Equatable {
    public var kind: APNsPushKind
    public var priority: APNsPriority
    public var expiration: APNsExpiration
    /// Replaces the notification shown with the same id (at most 64 bytes).
    public var collapseId: String?

    public init(_ kind: APNsPushKind, priority: APNsPriority? = nil, expiration: APNsExpiration = .none, collapseId: String? = nil) {
        self.kind = kind
        self.priority = priority ?? kind.defaultPriority
        self.expiration = expiration
        self.collapseId = collapseId
    }

    /// As FCM's `apns.headers` carries them (string values).
    public var fcmHeaders: JSONObject {
        var headers: JSONObject = ["apns-priority": .string(String(priority.rawValue)), "apns-push-type": .string(kind.rawValue)]
        if let collapseId { headers["apns-collapse-id"] = .string(collapseId) }
        if let expiration = expiration.headerValue { headers["apns-expiration"] = .string(expiration) }
        return headers
    }
}
