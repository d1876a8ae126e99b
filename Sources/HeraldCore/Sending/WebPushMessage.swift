import Crypto
import Foundation
import HeraldModels

/// One Web Push message (RFC 8030) to one subscription or UnifiedPush endpoint: the JSON the
/// service worker or app reads, sealed with RFC 8291 to the subscription's keys when it has them,
/// and the headers that tell the push service how to hold it.
public struct WebPushMessage: Sendable, Equatable {
    /// RFC 8030 §5.3: how soon the user agent must hear of it (and how much battery it may cost).
    public enum Urgency: String, Sendable, Equatable {
        case veryLow = "very-low"
        case low
        case normal
        case high
    }

    public var endpoint: String
    /// The subscription's keys; nil only for a UnifiedPush endpoint registered without keys,
    /// which then gets the JSON as it is.
    public var keys: PushEncryptionKeys?
    /// The plaintext: at most ``maxPlaintext`` bytes.
    public var payload: [UInt8]
    public var ttlSeconds: Int
    public var urgency: Urgency
    /// Replaces a message of the same topic still queued at the push service (≤ 32 base64url characters).
    public var topic: String?

    /// RFC 8291 §4: a push service takes 4096 bytes of body; the `aes128gcm` header (86 bytes),
    /// the padding delimiter and the tag leave this much plaintext.
    public static let maxPlaintext = 4096 - 86 - 1 - 16
    /// What a message lives at the push service when the event names no expiry: FCM's maximum.
    public static let defaultTTL = 2_419_200

    public init(endpoint: String, keys: PushEncryptionKeys?, payload: [UInt8], ttlSeconds: Int, urgency: Urgency, topic: String? = nil) {
        self.endpoint = endpoint
        self.keys = keys
        self.payload = payload
        self.ttlSeconds = ttlSeconds
        self.urgency = urgency
        self.topic = topic
    }

    /// The topic of a conversation: 32 base64url characters of its SHA-256 (a topic may not
    /// carry the id itself: ids can be longer, and the push service need not learn them).
    public static func topic(conversationId: String) -> String? {
        guard !conversationId.isEmpty else { return nil }
        return String(Base64URL.encode(Data(SHA256.hash(data: Data(conversationId.utf8)))).prefix(32))
    }

    /// The body as sent: sealed to the keys (a fresh key and salt each time), or the plaintext.
    public func body() throws -> [UInt8] {
        guard let keys else { return payload }
        return try keys.seal(payload)
    }
}
