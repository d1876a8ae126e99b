import Foundation
import HeraldModels

/// The call a push announces, with what CallKit needs at once (Kandy).
public struct CallPushInfo: Sendable, Equatable {
    /// Stable for a call: derived from its `sessionId`, so every push of one call names the same CallKit call.
    public var uuid: UUID
    public var sessionId: String
    public var callerId: String
    public var callerName: String
    public var callerAvatar: String?
    public var hasVideo: Bool
    /// `initiated`, `ongoing`, `ended`, `cancelled`, `rejected`, `busy`, `unanswered`.
    public var callAction: String
    public var receiverType: ReceiverType
    public var conversationId: String
    public var sentAt: Date?

    /// True while the call still rings: report it to CallKit; otherwise end it there.
    public var isIncoming: Bool { callAction == "initiated" }

    /// Reads a VoIP (PushKit) or alert push of a call.
    public init(payload: [String: Any]) throws(HeraldKitError) {
        guard let call = try Herald.processMessage(payload) as? CallMessage else { throw .notAMessage(kind: "not a call") }
        self.uuid = Self.uuid(forSession: call.sessionId)
        sessionId = call.sessionId
        callerId = call.sender.uid
        callerName = call.sender.name
        callerAvatar = call.sender.avatar
        hasVideo = call.type == "video"
        callAction = call.callAction
        receiverType = call.receiverType
        conversationId = call.conversationId
        sentAt = call.sentAt
    }

    /// A name-based UUID (version 5 layout over SHA-1-free FNV mixing, deterministic on every platform).
    public static func uuid(forSession sessionId: String) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in sessionId.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 ^ (a >> 29)
        }
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: a >> (index * 8))
            bytes[index + 8] = UInt8(truncatingIfNeeded: b >> (index * 8))
        }
        bytes[6] = (bytes[6] & 0x0f) | 0x50
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}
