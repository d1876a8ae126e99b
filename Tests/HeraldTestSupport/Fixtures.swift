import Crypto
import Foundation
import _CryptoExtras

/// Throwaway credentials made for tests. None of these is a real secret.
public enum Fixtures {
    /// The key id of the test APNs signing keys (a .p8's `AuthKey_<key id>.p8`), which the
    /// APNs stand-in is told to trust.
    public static let apnsKeyId = "ABC123DEFG"

    /// A fresh P-256 key in PKCS#8 PEM, as an APNs .p8 file is.
    public static func apnsSigningKeyPEM() -> String {
        P256.Signing.PrivateKey().pemRepresentation
    }

    /// One RSA key per test process (generating one takes a while).
    public static let rsaKeyPEM: String = {
        (try? _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation) ?? ""
    }()

    /// A service-account object as Firebase's console downloads it.
    public static func serviceAccount(projectId: String = "acme-chat-app", privateKey: String? = nil) -> [String: Any] {
        [
            "type": "service_account",
            "project_id": projectId,
            "private_key_id": "0123456789abcdef0123456789abcdef01234567",
            "private_key": privateKey ?? rsaKeyPEM,
            "client_email": "firebase-adminsdk@\(projectId).iam.gserviceaccount.com",
            "client_id": "100000000000000000000",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": "https://oauth2.googleapis.com/token",
        ]
    }

    public static let p12Password = "herald-test"

    /// Base64 of one of the .p12 files in `Fixtures/` (see make-fixtures.py).
    public static func p12(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "p12", subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url).base64EncodedString()
    }

    /// A token that looks like an APNs device token (32 random bytes, hex).
    public static func apnsToken() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// A token that looks like an FCM registration token.
    public static func fcmToken() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        return "f" + String((0..<22).map { _ in alphabet.randomElement()! }) + ":APA91b" + String((0..<134).map { _ in alphabet.randomElement()! })
    }

    /// A token that looks like a Huawei Push Kit token.
    /// A Web Push subscription's endpoint, shaped as Mozilla's are.
    public static func webPushEndpoint(base: String = "https://updates.push.services.mozilla.com") -> String {
        base + "/wpush/v2/" + String((0..<40).map { _ in Array("abcdefghijklmnopqrstuvwxyz0123456789").randomElement()! })
    }

    /// A browser's subscription keys: `p256dh` and `auth` as the browser gives them (base64url),
    /// and the private key (raw 32 bytes, base64url) that opens what is sealed to them.
    public static func webPushKeys() -> (p256dh: String, auth: String, privateKey: String) {
        let key = P256.KeyAgreement.PrivateKey()
        let auth = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        func encode(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return (encode(key.publicKey.x963Representation), encode(auth), encode(key.rawRepresentation))
    }

    public static func hmsToken() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return "IQAAAACy0" + String((0..<120).map { _ in alphabet.randomElement()! })
    }
}
