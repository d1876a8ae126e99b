import Foundation
import HeraldKit
import HeraldModels
import Testing

/// RFC 8291 Appendix A ("Intermediate Values for Encryption"), quoted in base64url.
private enum Appendix {
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let uaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    static let body =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
        + "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
        + "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    /// `{"title":"Hi","body":"Watermelon"}` sealed by the server's `WebPushCipher` for the keys above,
    /// with the appendix's as_private and salt (so the server side pins it too).
    static let jsonBody =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
        + "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_e3c9cFr7_NBue"
        + "m-db9gdd8mH99-EXPciR9moRhLb_RbbCPK19f0LD1RxfI47142mh_Mo"
}

private func bytes(_ base64url: String) throws -> [UInt8] {
    try Array(#require(Base64URL.decode(base64url)))
}

private func appendixDecryptor() throws -> HeraldPushDecryptor {
    try HeraldPushDecryptor(privateKey: bytes(Appendix.uaPrivate), authSecret: bytes(Appendix.authSecret))
}

@Suite("Push decryption (RFC 8291)")
struct HeraldPushDecryptorTests {
    @Test func opensTheRFC8291AppendixAVector() throws {
        let decryptor = try appendixDecryptor()
        let plaintext = try decryptor.open(bytes(Appendix.body))
        #expect(String(decoding: plaintext, as: UTF8.self) == Appendix.plaintext)
        #expect(try decryptor.open(base64url: Appendix.body) == plaintext)
        #expect(try decryptor.open(base64url: " \(Appendix.body)\n") == plaintext)
    }

    @Test func registrationGivesTheRFCPublicKeyAndSecret() throws {
        let privateKey = try bytes(Appendix.uaPrivate)
        let authSecret = try bytes(Appendix.authSecret)
        let decryptor = try HeraldPushDecryptor(privateKey: privateKey, authSecret: authSecret)
        #expect(decryptor.registration.p256dh == Appendix.uaPublic)
        #expect(decryptor.registration.auth == Appendix.authSecret)
        #expect(decryptor.privateKeyBytes == privateKey)
        #expect(decryptor.authSecret == authSecret)
    }

    @Test func generatedDecryptorsAreFreshAndRestorable() throws {
        let first = HeraldPushDecryptor.generate()
        let second = HeraldPushDecryptor.generate()
        #expect(first.privateKeyBytes.count == 32)
        #expect(first.authSecret.count == 16)
        #expect(first.privateKeyBytes != second.privateKeyBytes)
        #expect(first.authSecret != second.authSecret)
        #expect(first.registration.p256dh != second.registration.p256dh)
        let publicKey = try bytes(first.registration.p256dh)
        #expect(publicKey.count == 65 && publicKey.first == 0x04)
        let restored = try HeraldPushDecryptor(privateKey: first.privateKeyBytes, authSecret: first.authSecret)
        #expect(restored.registration == first.registration)
    }

    @Test func invalidKeysAreRefused() throws {
        let privateKey = try bytes(Appendix.uaPrivate)
        let authSecret = try bytes(Appendix.authSecret)
        let badPrivateKeys: [[UInt8]] = [
            [], Array(privateKey.dropLast()), privateKey + [0x00], [UInt8](repeating: 0, count: 32), [UInt8](repeating: 0xFF, count: 32),
        ]
        for key in badPrivateKeys {
            #expect(throws: HeraldPushDecryptor.Failure.invalidPrivateKey) {
                try HeraldPushDecryptor(privateKey: key, authSecret: authSecret)
            }
        }
        for secret in [[], Array(authSecret.dropLast()), authSecret + [0x00]] {
            #expect(throws: HeraldPushDecryptor.Failure.invalidAuthSecret) {
                try HeraldPushDecryptor(privateKey: privateKey, authSecret: secret)
            }
        }
    }

    @Test func aTamperedBodyIsRefused() throws {
        let decryptor = try appendixDecryptor()
        let body = try bytes(Appendix.body)
        // Salt, first and middle ciphertext bytes, last tag byte.
        for index in [0, 15, 86, 100, body.count - 1] {
            var tampered = body
            tampered[index] ^= 0x80
            #expect(throws: HeraldPushDecryptor.Failure.cannotDecrypt, "byte \(index)") {
                try decryptor.open(tampered)
            }
        }
        var shortKeyID = body
        shortKeyID[20] = 64
        var offCurveKeyID = body
        offCurveKeyID[85] ^= 0x01
        for malformed in [[], Array(body.prefix(102)), shortKeyID, offCurveKeyID] {
            #expect(throws: HeraldPushDecryptor.Failure.malformed) {
                try decryptor.open(malformed)
            }
        }
        #expect(throws: HeraldPushDecryptor.Failure.malformed) {
            try decryptor.open(base64url: "not base64url!")
        }
    }

    @Test func aWrongAuthSecretIsRefused() throws {
        var secret = try bytes(Appendix.authSecret)
        secret[15] ^= 0x01
        let decryptor = try HeraldPushDecryptor(privateKey: bytes(Appendix.uaPrivate), authSecret: secret)
        #expect(throws: HeraldPushDecryptor.Failure.cannotDecrypt) {
            try decryptor.open(bytes(Appendix.body))
        }
        #expect(throws: HeraldPushDecryptor.Failure.cannotDecrypt) {
            try HeraldPushDecryptor.generate().open(bytes(Appendix.body))
        }
    }

    @Test func userInfoOfAPNsAndFCMPushesIsOpened() throws {
        let decryptor = try appendixDecryptor()
        let apns: [AnyHashable: Any] = [
            "aps": ["alert": ["title": "New message"], "mutable-content": 1],
            "herald": ["enc": Appendix.jsonBody],
        ]
        let fcm: [AnyHashable: Any] = ["enc": Appendix.jsonBody]
        for userInfo in [apns, fcm] {
            let object = try decryptor.open(userInfo: userInfo)
            #expect(object["title"] as? String == "Hi")
            #expect(object["body"] as? String == "Watermelon")
            #expect(object.count == 2)
        }
        #expect(throws: HeraldPushDecryptor.Failure.missingPayload) {
            try decryptor.open(userInfo: ["aps": ["alert": "hi"]])
        }
        #expect(throws: HeraldPushDecryptor.Failure.missingPayload) {
            try decryptor.open(userInfo: ["herald": ["enc": 7]])
        }
        // The appendix's plaintext is text, not a JSON object.
        #expect(throws: HeraldPushDecryptor.Failure.notJSONObject) {
            try decryptor.open(userInfo: ["enc": Appendix.body])
        }
    }
}
