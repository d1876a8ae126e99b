import Foundation
import HeraldModels

/// What a device registers with its token to receive encrypted pushes, as Web Push subscriptions
/// carry it (RFC 8291): its P-256 public key (`p256dh`, 65 bytes uncompressed) and a 16-byte auth
/// secret, both base64url. The device keeps the private key; Herald seals each notification to
/// this key (``WebPushCipher``) and cannot open it again.
public struct PushEncryptionKeys: Sendable, Equatable {
    public var p256dh: [UInt8]
    public var auth: [UInt8]

    /// The keys as a client sends them; errors name `field.p256dh` or `field.auth`.
    public init(p256dh: String, auth: String, field: String = "encryption") throws {
        guard let key = Base64URL.decode(p256dh).map(Array.init), (try? WebPushCipher.uncompressedPublicKey(key)) != nil else {
            throw HeraldError.invalidField("\(field).p256dh", "must be a P-256 public key, 65 bytes uncompressed, in base64url")
        }
        guard let secret = Base64URL.decode(auth).map(Array.init), secret.count == 16 else {
            throw HeraldError.invalidField("\(field).auth", "must be 16 bytes in base64url")
        }
        self.p256dh = key
        self.auth = secret
    }

    /// The `encryption` column: `p256dh.auth` in base64url.
    public var storedText: String { Base64URL.encode(Data(p256dh)) + "." + Base64URL.encode(Data(auth)) }

    public init?(storedText: String?) {
        guard let parts = storedText?.split(separator: "."), parts.count == 2,
            let key = Base64URL.decode(parts[0]), let secret = Base64URL.decode(parts[1])
        else { return nil }
        p256dh = Array(key)
        auth = Array(secret)
    }

    /// Seals `plaintext` to the device: RFC 8291 `aes128gcm`, a fresh key and salt each time.
    public func seal(_ plaintext: [UInt8]) throws -> [UInt8] {
        try WebPushCipher.seal(plaintext, publicKey: p256dh, authSecret: auth)
    }
}
