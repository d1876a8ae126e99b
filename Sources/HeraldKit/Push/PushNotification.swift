import Foundation
import HeraldModels

/// A campaign push (CometChat Campaigns): what the `cometchat` dictionary of type `business_messaging`
/// carries, for reporting it delivered (from a Notification Service Extension) and clicked.
public struct PushNotification: Sendable, Equatable {
    /// The push's tracking id (`pushNotificationId`).
    public var id: String
    /// The feed item it announces (`notificationId`).
    public var announcementId: String
    public var campaignId: String?
    public var uid: String?
    public var appId: String?
    public var sentAt: Date?
    /// Always "campaign" for feed pushes.
    public var source: String { "campaign" }

    /// Reads the `cometchat` dictionary (APNs), or the whole data of an FCM/HMS message.
    public static func fromPayload(_ payload: [String: Any]) throws(HeraldKitError) -> PushNotification {
        let fields = (payload["cometchat"] as? [String: Any]) ?? payload
        guard fields["type"] as? String == "business_messaging" else { throw .notAMessage(kind: "not a campaign push") }
        guard let id = fields["pushNotificationId"] as? String, let item = fields["notificationId"] as? String else {
            throw .invalidPayload("a campaign push needs pushNotificationId and notificationId")
        }
        return PushNotification(
            id: id,
            announcementId: item,
            campaignId: fields["campaignId"] as? String,
            uid: fields["uid"] as? String,
            appId: fields["appId"] as? String,
            sentAt: (fields["sentAt"] as? String).flatMap(WireTimestamp.parse)
        )
    }

    /// Whether a push is a campaign push (rather than a chat or call push).
    public static func isCampaignPush(_ payload: [String: Any]) -> Bool {
        ((payload["cometchat"] as? [String: Any]) ?? payload)["type"] as? String == "business_messaging"
    }
}

extension Herald {
    /// Reports that a campaign push reached the device (idempotent).
    public func markPushNotificationDelivered(_ push: PushNotification) async throws(HeraldKitError) {
        _ = try await userRequest("POST", "v1/me/push-notifications/\(push.id)/delivered")
    }

    /// Reports that the user tapped a campaign push (idempotent; implies delivered).
    public func markPushNotificationClicked(_ push: PushNotification) async throws(HeraldKitError) {
        _ = try await userRequest("POST", "v1/me/push-notifications/\(push.id)/clicked")
    }
}
