import Foundation
import HeraldModels

/// A device's report of a push — it arrived (report it from the Notification Service Extension)
/// or the user opened it — sent to `POST /v1/me/receipts` in batches. A chat push is named by
/// its message (the payload's `tag`, or `herald.messageId` in the id-only mode), a campaign push
/// by its `pushNotificationId`. Herald records each once, however often it is sent.
public struct PushReceipt: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case received
        case opened
    }

    public var kind: Kind
    public var messageId: String?
    public var pushNotificationId: String?
    public var at: Date

    public init(kind: Kind, messageId: String? = nil, pushNotificationId: String? = nil, at: Date = Date()) {
        self.kind = kind
        self.messageId = messageId
        self.pushNotificationId = pushNotificationId
        self.at = at
    }

    /// The receipt for a push's payload (an encrypted one opened first with
    /// ``HeraldPushDecryptor``), or nil when it names no message or campaign push (a clear, say).
    public init?(_ kind: Kind, payload: [AnyHashable: Any], at: Date = Date()) {
        if PushNotification.isCampaignPush(Self.strings(payload)), let push = try? PushNotification.fromPayload(Self.strings(payload)) {
            self.init(kind: kind, pushNotificationId: push.id, at: at)
            return
        }
        let herald = payload["herald"] as? [String: Any]
        guard herald?["type"] as? String != "clear", herald?["type"] as? String != "retract",
            let message = payload["tag"] as? String ?? herald?["messageId"] as? String
        else { return nil }
        self.init(kind: kind, messageId: message, at: at)
    }

    static func strings(_ payload: [AnyHashable: Any]) -> [String: Any] {
        Dictionary(payload.compactMap { key, value in (key as? String).map { ($0, value) } }, uniquingKeysWith: { first, _ in first })
    }

    var json: JSONValue {
        var object: JSONObject = ["type": .string(kind.rawValue), "at": .string(WireTimestamp.format(at))]
        if let messageId { object["messageId"] = .string(messageId) }
        if let pushNotificationId { object["pushNotificationId"] = .string(pushNotificationId) }
        return .object(object)
    }
}

extension Herald {
    /// Keeps a receipt for the next ``flushReceipts()`` (a push's payload that names nothing is ignored).
    public nonisolated func noteReceipt(_ kind: PushReceipt.Kind, payload: [AnyHashable: Any]) async {
        guard let receipt = PushReceipt(kind, payload: payload) else { return }
        await noteReceipt(receipt)
    }

    public func noteReceipt(_ receipt: PushReceipt) {
        pendingReceipts.append(receipt)
    }

    /// Sends the receipts kept, 100 per request; those not sent (no session, no network) stay for
    /// the next flush. Returns how many Herald recorded as new.
    @discardableResult
    public func flushReceipts() async throws(HeraldKitError) -> Int {
        var recorded = 0
        while !pendingReceipts.isEmpty {
            let batch = Array(pendingReceipts.prefix(100))
            let answer = try await userRequest("POST", "v1/me/receipts", body: .object(["receipts": .array(batch.map(\.json))]))
            pendingReceipts.removeFirst(batch.count)
            if case .number(let count)? = answer["recorded"] { recorded += Int(count) }
        }
        return recorded
    }

    /// Receipts waiting to be sent.
    public var pendingReceiptCount: Int { pendingReceipts.count }
}
