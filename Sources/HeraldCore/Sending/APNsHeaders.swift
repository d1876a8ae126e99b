import Foundation
import HeraldModels

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
