import Foundation
import HeraldModels

/// What a device reports of a push (`POST /v1/me/receipts`, HeraldKit batches them): that it
/// arrived (from the Notification Service Extension) or that the user opened it. A chat push is
/// named by its message (`messageId`: the payload's `tag`, or `herald.messageId`), a campaign push
/// by its `pushNotificationId`. Reporting the same thing twice changes nothing.
public struct DeviceReceipt: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case received
        case opened
    }

    public var kind: Kind
    public var messageId: String?
    public var pushNotificationId: String?
    public var at: Date

    public init(kind: Kind, messageId: String? = nil, pushNotificationId: String? = nil, at: Date) {
        self.kind = kind
        self.messageId = messageId
        self.pushNotificationId = pushNotificationId
        self.at = at
    }

    public static let maxBatch = 100

    /// A receipt as a client sends it; errors name `field`.
    public static func parse(
        kind: String,
        messageId: String?,
        pushNotificationId: String?,
        at: Date?,
        now: Date,
        field: String
    ) throws -> DeviceReceipt {
        guard let kind = Kind(rawValue: kind) else { throw HeraldError.invalidField("\(field).type", "must be received or opened") }
        guard (messageId == nil) != (pushNotificationId == nil) else {
            throw HeraldError.invalidField(field, "needs one of messageId (a chat push) and pushNotificationId (a campaign push)")
        }
        if let messageId { try Validate.text(messageId, field: "\(field).messageId", maxLength: 200, required: true) }
        if let pushNotificationId { try Validate.text(pushNotificationId, field: "\(field).pushNotificationId", maxLength: 200, required: true) }
        // A device's clock may run ahead; a receipt is never later than its arrival here.
        return DeviceReceipt(kind: kind, messageId: messageId, pushNotificationId: pushNotificationId, at: min(at ?? now, now))
    }
}

/// Receipts from a user's devices: chat pushes' `received`/`opened` on their deliveries, campaign
/// pushes through the campaign's tracking (delivered/clicked).
public struct DeviceReceipts: Sendable {
    let deliveries: any DeliveryRepository
    let feed: UserFeed

    public init(deliveries: any DeliveryRepository, feed: UserFeed) {
        self.deliveries = deliveries
        self.feed = feed
    }

    /// Records a batch; returns how many receipts changed something.
    public func record(appId: String, uid: String, _ receipts: [DeviceReceipt]) async throws -> Int {
        guard receipts.count <= DeviceReceipt.maxBatch else {
            throw HeraldError.invalidField("receipts", "must hold at most \(DeviceReceipt.maxBatch) receipts")
        }
        var changed = try await deliveries.recordReceipts(appId: appId, uid: uid, receipts.filter { $0.messageId != nil })
        for receipt in receipts {
            guard let push = receipt.pushNotificationId else { continue }
            do {
                _ = try await feed.trackPush(appId: appId, uid: uid, pushNotificationId: push, clicked: receipt.kind == .opened)
                changed += 1
            } catch let error as HeraldError where error.kind == .notFound {
                // A push of another user, or long gone: nothing to record (the batch goes on).
                continue
            }
        }
        return changed
    }
}
