import Crypto
import HeraldCore

/// SHA-256 of bearer secrets. API keys and auth tokens carry over 230 bits of randomness, so a
/// fast hash is enough: nothing useful can be guessed, and lookups stay one indexed query.
struct SHA256SecretHasher: SecretHasher {
    func hash(_ secret: String) -> String {
        SHA256.hash(data: Array(secret.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
