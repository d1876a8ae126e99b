import Crypto
import Foundation
import HeraldCore

/// AES-256-GCM for provider secrets at rest. A sealed value is `v1:` + base64(nonce ‖ ciphertext ‖ tag),
/// with the provider's identity as additional authenticated data.
struct AESGCMSecretBox: SecretBox {
    private let key: SymmetricKey

    init(key: SymmetricKey) {
        self.key = key
    }

    func seal(_ plaintext: String, context: String) throws -> String {
        let box = try AES.GCM.seal(Array(plaintext.utf8), using: key, authenticating: Array(context.utf8))
        guard let combined = box.combined else { throw HeraldError(.internal, "sealing failed") }
        return "v1:" + combined.base64EncodedString()
    }

    func open(_ sealed: String, context: String) throws -> String {
        guard sealed.hasPrefix("v1:"), let data = Data(base64Encoded: String(sealed.dropFirst(3))) else {
            throw HeraldError(.internal, "a stored secret is not in a known format")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: data)
            let plaintext = try AES.GCM.open(box, using: key, authenticating: Array(context.utf8))
            return String(decoding: plaintext, as: UTF8.self)
        } catch {
            throw HeraldError(
                .internal,
                code: "secret_key_mismatch",
                "a stored secret does not open with this server's secret key (HERALD_SECRET_KEY or the key file)"
            )
        }
    }
}
