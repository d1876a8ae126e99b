import Crypto
import Foundation
import HeraldModels

/// Opens pushes that the server encrypted for this device with RFC 8291's `aes128gcm` (Web Push
/// message encryption), typically in a Notification Service Extension. The app keeps the private key
/// and authentication secret (e.g. in a keychain shared with the extension) and sends `registration`
/// with its push token as `"encryption": {"p256dh": …, "auth": …}`.
public struct HeraldPushDecryptor: Sendable {
    /// Why a decryptor could not be made or a push could not be opened.
    public enum Failure: Error, Equatable {
        /// The private key is not 32 bytes forming a valid P-256 scalar.
        case invalidPrivateKey
        /// The authentication secret is not 16 bytes.
        case invalidAuthSecret
        /// The body is not base64url, or not a single-record `aes128gcm` body with a 65-byte key id.
        case malformed
        /// The record does not authenticate for this device's keys, or its padding is wrong.
        case cannotDecrypt
        /// The notification has no `herald.enc` (APNs) or `enc` (FCM data) string.
        case missingPayload
        /// The decrypted payload is not a JSON object.
        case notJSONObject
    }

    /// The device's P-256 private key, 32 raw bytes, for the app to store.
    public var privateKeyBytes: [UInt8] { privateKey }
    /// The 16-byte authentication secret shared with the server at registration, for the app to store.
    public var authSecret: [UInt8] { secret }

    private let privateKey: [UInt8]
    private let secret: [UInt8]
    /// The device's public key, uncompressed (65 bytes, 0x04 ‖ x ‖ y).
    private let publicKeyBytes: [UInt8]

    /// A decryptor for keys the app stored earlier.
    public init(privateKey: [UInt8], authSecret: [UInt8]) throws {
        guard privateKey.count == 32, let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey) else {
            throw Failure.invalidPrivateKey
        }
        guard authSecret.count == 16 else { throw Failure.invalidAuthSecret }
        self.privateKey = privateKey
        self.secret = authSecret
        self.publicKeyBytes = Array(key.publicKey.x963Representation)
    }

    /// A fresh key pair and a fresh random authentication secret, for a first registration.
    public static func generate() -> HeraldPushDecryptor {
        let key = P256.KeyAgreement.PrivateKey()
        let secret = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        return HeraldPushDecryptor(
            privateKey: Array(key.rawRepresentation),
            secret: secret,
            publicKeyBytes: Array(key.publicKey.x963Representation)
        )
    }

    private init(privateKey: [UInt8], secret: [UInt8], publicKeyBytes: [UInt8]) {
        self.privateKey = privateKey
        self.secret = secret
        self.publicKeyBytes = publicKeyBytes
    }

    /// What the app registers with its push token: the public key and the authentication secret,
    /// both base64url without padding.
    public var registration: (p256dh: String, auth: String) {
        (Base64URL.encode(Data(publicKeyBytes)), Base64URL.encode(Data(authSecret)))
    }

    /// Decrypts an `aes128gcm` body: salt ‖ rs ‖ idlen ‖ the server's ephemeral public key ‖ one record.
    public func open(_ body: [UInt8]) throws -> [UInt8] {
        let fixedLength = 21 + 65
        guard body.count >= fixedLength + 1 + 16, body[20] == 65 else { throw Failure.malformed }
        let salt = Array(body[0..<16])
        let recordSize = body[16..<20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let record = body[fixedLength...]
        guard recordSize >= 18, record.count <= Int(recordSize) else { throw Failure.malformed }
        let serverPublic = Array(body[21..<fixedLength])
        guard serverPublic[0] == 0x04, let serverKey = try? P256.KeyAgreement.PublicKey(x963Representation: serverPublic) else {
            throw Failure.malformed
        }
        guard let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey),
            let shared = try? key.sharedSecretFromKeyAgreement(with: serverKey)
        else { throw Failure.cannotDecrypt }

        // RFC 8291 §3.3–3.4, with this device as the user agent.
        let ecdhSecret = shared.withUnsafeBytes { Array($0) }
        let keyInfo = Array("WebPush: info".utf8) + [0x00] + publicKeyBytes + serverPublic
        let inputKeyingMaterial = Self.hmac(key: Self.hmac(key: secret, ecdhSecret), keyInfo + [0x01])
        let pseudorandomKey = Self.hmac(key: salt, inputKeyingMaterial)
        let contentKey = Self.hmac(key: pseudorandomKey, Array("Content-Encoding: aes128gcm".utf8) + [0x00, 0x01]).prefix(16)
        let nonce = Self.hmac(key: pseudorandomKey, Array("Content-Encoding: nonce".utf8) + [0x00, 0x01]).prefix(12)

        let padded: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: record.dropLast(16), tag: record.suffix(16))
            padded = Array(try AES.GCM.open(box, using: SymmetricKey(data: contentKey)))
        } catch {
            throw Failure.cannotDecrypt
        }
        // Padding is the delimiter then zeros; a single record is the last, whose delimiter is 0x02.
        guard let delimiter = padded.lastIndex(where: { $0 != 0 }), padded[delimiter] == 0x02 else {
            throw Failure.cannotDecrypt
        }
        return Array(padded[..<delimiter])
    }

    /// Decrypts a body sent as base64url text (padding and surrounding whitespace allowed).
    public func open(base64url text: String) throws -> [UInt8] {
        guard let data = Base64URL.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw Failure.malformed }
        return try open(Array(data))
    }

    /// Decrypts the JSON object in a notification: `userInfo["herald"]["enc"]` (APNs) or a
    /// top-level `"enc"` string (FCM data).
    public func open(userInfo: [AnyHashable: Any]) throws -> [String: Any] {
        let herald = (userInfo["herald"] as? [String: Any])?["enc"] ?? (userInfo["herald"] as? [AnyHashable: Any])?["enc"]
        guard let text = (herald as? String) ?? (userInfo["enc"] as? String) else { throw Failure.missingPayload }
        let plaintext = try open(base64url: text)
        guard let object = try? JSONSerialization.jsonObject(with: Data(plaintext)) as? [String: Any] else {
            throw Failure.notJSONObject
        }
        return object
    }

    /// HMAC-SHA-256, which is both HKDF's extract and (for one block of output) its expand.
    private static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}
