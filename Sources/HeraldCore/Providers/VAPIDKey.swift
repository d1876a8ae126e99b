import Crypto
import Foundation
import HeraldModels

/// An application server's VAPID key pair (RFC 8292): P-256, signing ES256 tokens. Stored as the
/// raw 32-byte private scalar in base64url (sealed with the provider's other secrets); imported
/// from that form or from a PEM (`EC PRIVATE KEY` or PKCS #8), as `web-push` and `py_vapid` write it.
public struct VAPIDKey: Sendable {
    public let privateKey: P256.Signing.PrivateKey

    public init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// A new key pair.
    public static func generate() -> VAPIDKey { VAPIDKey(privateKey: P256.Signing.PrivateKey()) }

    /// An imported key: base64url (or base64) of the 32-byte scalar, or a PEM.
    public init(importing text: String, field: String = "vapidPrivateKey") throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("-----BEGIN") {
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: trimmed) else {
                throw HeraldError.invalidField(field, "the PEM is not a P-256 private key")
            }
            self.init(privateKey: key)
            return
        }
        guard let raw = Base64URL.decode(trimmed) ?? Data(base64Encoded: trimmed), raw.count == 32,
            let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
        else {
            throw HeraldError.invalidField(field, "must be a P-256 private key: 32 bytes in base64url, or a PEM")
        }
        self.init(privateKey: key)
    }

    /// The stored form: the scalar in base64url.
    public var storedText: String { Base64URL.encode(privateKey.rawRepresentation) }

    /// The public key as browsers take it (`applicationServerKey`) and as the `k=` of the
    /// `Authorization` header: 65 bytes uncompressed, base64url.
    public var publicKeyText: String { Base64URL.encode(privateKey.publicKey.x963Representation) }
}
