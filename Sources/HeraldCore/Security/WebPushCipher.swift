import Crypto
import Foundation

/// RFC 8291's message encryption for Web Push: the `aes128gcm` content coding of RFC 8188 with
/// keys from an ECDH exchange between a fresh application-server key and the user agent's P-256 key,
/// mixed with the user agent's authentication secret. Bodies are a single record, as RFC 8291 §4 asks.
public enum WebPushCipher {
    /// Why a push body could not be sealed or opened.
    public enum Failure: Error, Equatable {
        /// The user agent's key is not a 65-byte uncompressed P-256 point on the curve.
        case invalidPublicKey
        /// A private key is not 32 bytes forming a valid P-256 scalar.
        case invalidPrivateKey
        /// The authentication secret is not 16 bytes.
        case invalidAuthSecret
        /// The salt is not 16 bytes.
        case invalidSalt
        /// The record size is below RFC 8188's minimum of 18.
        case invalidRecordSize
        /// The plaintext, its padding delimiter and the tag do not fit in one record.
        case tooLarge
        /// The body is not a single-record `aes128gcm` body with a 65-byte key id.
        case malformed
        /// The record does not authenticate under the derived key, or its padding is wrong.
        case cannotDecrypt
    }

    /// Bytes of the `aes128gcm` header before the key id: salt (16), rs (4), idlen (1).
    static let headerPrefixLength = 21
    /// Length of an uncompressed P-256 point, the key id of a Web Push body.
    static let publicKeyLength = 65
    /// AES-GCM's tag length.
    static let tagLength = 16

    /// Encrypts `plaintext` for a user agent: salt ‖ rs ‖ idlen ‖ ephemeral public key ‖ one record.
    /// `ephemeralPrivateKey` (32 raw bytes) and `salt` (16 bytes) are fresh for each call unless given,
    /// which only tests should do.
    public static func seal(
        _ plaintext: [UInt8],
        publicKey: [UInt8],
        authSecret: [UInt8],
        recordSize: UInt32 = 4096,
        ephemeralPrivateKey: [UInt8]? = nil,
        salt: [UInt8]? = nil
    ) throws -> [UInt8] {
        let userAgentKey = try uncompressedPublicKey(publicKey)
        guard authSecret.count == 16 else { throw Failure.invalidAuthSecret }
        guard recordSize >= 18 else { throw Failure.invalidRecordSize }
        guard plaintext.count + 1 + tagLength <= Int(recordSize) else { throw Failure.tooLarge }
        let salt = salt ?? SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        guard salt.count == 16 else { throw Failure.invalidSalt }
        let ephemeral: P256.KeyAgreement.PrivateKey
        if let ephemeralPrivateKey {
            guard ephemeralPrivateKey.count == 32,
                let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: ephemeralPrivateKey)
            else { throw Failure.invalidPrivateKey }
            ephemeral = key
        } else {
            ephemeral = P256.KeyAgreement.PrivateKey()
        }
        let applicationServerPublic = Array(ephemeral.publicKey.x963Representation)
        guard let shared = try? ephemeral.sharedSecretFromKeyAgreement(with: userAgentKey) else {
            throw Failure.invalidPublicKey
        }
        let keys = deriveKeys(
            ecdhSecret: shared.withUnsafeBytes { Array($0) },
            authSecret: authSecret,
            userAgentPublic: publicKey,
            applicationServerPublic: applicationServerPublic,
            salt: salt
        )
        // The one record is also the last, so its padding delimiter is 0x02 (RFC 8188 §2).
        let box = try AES.GCM.seal(
            plaintext + [0x02],
            using: SymmetricKey(data: keys.contentKey),
            nonce: AES.GCM.Nonce(data: keys.nonce)
        )
        var body = salt
        body.reserveCapacity(headerPrefixLength + publicKeyLength + plaintext.count + 1 + tagLength)
        body += withUnsafeBytes(of: recordSize.bigEndian) { Array($0) }
        body.append(UInt8(publicKeyLength))
        body += applicationServerPublic
        body += box.ciphertext
        body += box.tag
        return body
    }

    /// Decrypts a single-record `aes128gcm` body with the user agent's 32-byte private key and
    /// authentication secret: the receiving side, for tests and tools.
    public static func open(_ body: [UInt8], privateKey: [UInt8], authSecret: [UInt8]) throws -> [UInt8] {
        guard privateKey.count == 32, let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey) else {
            throw Failure.invalidPrivateKey
        }
        guard authSecret.count == 16 else { throw Failure.invalidAuthSecret }
        let fixedLength = headerPrefixLength + publicKeyLength
        guard body.count >= fixedLength + 1 + tagLength, body[20] == UInt8(publicKeyLength) else { throw Failure.malformed }
        let salt = Array(body[0..<16])
        let recordSize = body[16..<20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let record = body[fixedLength...]
        guard recordSize >= 18, record.count <= Int(recordSize) else { throw Failure.malformed }
        let applicationServerPublic = Array(body[headerPrefixLength..<fixedLength])
        guard let serverKey = try? uncompressedPublicKey(applicationServerPublic) else { throw Failure.malformed }
        guard let shared = try? key.sharedSecretFromKeyAgreement(with: serverKey) else { throw Failure.cannotDecrypt }
        let keys = deriveKeys(
            ecdhSecret: shared.withUnsafeBytes { Array($0) },
            authSecret: authSecret,
            userAgentPublic: Array(key.publicKey.x963Representation),
            applicationServerPublic: applicationServerPublic,
            salt: salt
        )
        let padded: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: keys.nonce),
                ciphertext: record.dropLast(tagLength),
                tag: record.suffix(tagLength)
            )
            padded = Array(try AES.GCM.open(box, using: SymmetricKey(data: keys.contentKey)))
        } catch {
            throw Failure.cannotDecrypt
        }
        // Padding is the delimiter then zeros; the last record's delimiter is 0x02.
        guard let delimiter = padded.lastIndex(where: { $0 != 0 }), padded[delimiter] == 0x02 else {
            throw Failure.cannotDecrypt
        }
        return Array(padded[..<delimiter])
    }

    /// A P-256 key from its uncompressed form (0x04 ‖ x ‖ y), refusing other lengths, forms and off-curve points.
    static func uncompressedPublicKey(_ bytes: [UInt8]) throws -> P256.KeyAgreement.PublicKey {
        guard bytes.count == publicKeyLength, bytes.first == 0x04,
            let key = try? P256.KeyAgreement.PublicKey(x963Representation: bytes)
        else { throw Failure.invalidPublicKey }
        return key
    }

    /// RFC 8291 §3.3–3.4 and RFC 8188 §2.2–2.3: the content-encryption key (16 bytes) and nonce (12 bytes).
    static func deriveKeys(
        ecdhSecret: [UInt8],
        authSecret: [UInt8],
        userAgentPublic: [UInt8],
        applicationServerPublic: [UInt8],
        salt: [UInt8]
    ) -> (contentKey: [UInt8], nonce: [UInt8]) {
        let keyInfo = Array("WebPush: info".utf8) + [0x00] + userAgentPublic + applicationServerPublic
        let pseudorandomKeyForKey = hmac(key: authSecret, ecdhSecret)
        let inputKeyingMaterial = hmac(key: pseudorandomKeyForKey, keyInfo + [0x01])
        let pseudorandomKey = hmac(key: salt, inputKeyingMaterial)
        let contentKey = hmac(key: pseudorandomKey, Array("Content-Encoding: aes128gcm".utf8) + [0x00, 0x01])
        let nonce = hmac(key: pseudorandomKey, Array("Content-Encoding: nonce".utf8) + [0x00, 0x01])
        return (Array(contentKey.prefix(16)), Array(nonce.prefix(12)))
    }

    /// HMAC-SHA-256, which is both HKDF's extract and (for one block of output) its expand.
    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}
