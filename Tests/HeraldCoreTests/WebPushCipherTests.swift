import Foundation
import HeraldModels
import Testing

@testable import HeraldCore

/// RFC 8291 Appendix A ("Intermediate Values for Encryption"), quoted in base64url.
private enum Appendix {
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let asPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    static let asPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let uaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    static let body =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
        + "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
        + "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
}

private func bytes(_ base64url: String) throws -> [UInt8] {
    try Array(#require(Base64URL.decode(base64url)))
}

@Suite("RFC 8291 Web Push encryption")
struct WebPushCipherTests {
    @Test func sealsTheRFC8291AppendixAVector() throws {
        let body = try WebPushCipher.seal(
            Array(Appendix.plaintext.utf8),
            publicKey: bytes(Appendix.uaPublic),
            authSecret: bytes(Appendix.authSecret),
            recordSize: 4096,
            ephemeralPrivateKey: bytes(Appendix.asPrivate),
            salt: bytes(Appendix.salt)
        )
        #expect(Base64URL.encode(Data(body)) == Appendix.body)
        // The header: salt, rs = 4096, idlen = 65, keyid = as_public (derived from as_private).
        let salt = try bytes(Appendix.salt)
        let asPublic = try bytes(Appendix.asPublic)
        #expect(Array(body[0..<16]) == salt)
        #expect(Array(body[16..<21]) == [0x00, 0x00, 0x10, 0x00, 65])
        #expect(Array(body[21..<86]) == asPublic)
        #expect(body.count == 86 + Appendix.plaintext.utf8.count + 1 + 16)
    }

    @Test func opensTheRFC8291AppendixAVector() throws {
        let plaintext = try WebPushCipher.open(
            bytes(Appendix.body),
            privateKey: bytes(Appendix.uaPrivate),
            authSecret: bytes(Appendix.authSecret)
        )
        #expect(String(decoding: plaintext, as: UTF8.self) == Appendix.plaintext)
    }

    @Test func randomSealsUseAFreshSaltAndEphemeralKey() throws {
        let plaintext = Array(#"{"title":"Hello"}"#.utf8)
        let publicKey = try bytes(Appendix.uaPublic)
        let authSecret = try bytes(Appendix.authSecret)
        let first = try WebPushCipher.seal(plaintext, publicKey: publicKey, authSecret: authSecret)
        let second = try WebPushCipher.seal(plaintext, publicKey: publicKey, authSecret: authSecret)
        for body in [first, second] {
            #expect(body.count == 86 + plaintext.count + 1 + 16)
            #expect(Array(body[16..<22]) == [0x00, 0x00, 0x10, 0x00, 65, 0x04])
            let opened = try WebPushCipher.open(body, privateKey: bytes(Appendix.uaPrivate), authSecret: authSecret)
            #expect(opened == plaintext)
        }
        #expect(first[0..<16] != second[0..<16], "salt")
        #expect(first[21..<86] != second[21..<86], "ephemeral key")
        #expect(first[86...] != second[86...], "record")
    }

    @Test func invalidKeysAndSecretsAreRefused() throws {
        let plaintext = Array("hi".utf8)
        let publicKey = try bytes(Appendix.uaPublic)
        let authSecret = try bytes(Appendix.authSecret)
        var offCurve = publicKey
        offCurve[64] ^= 0x01
        var wrongForm = publicKey
        wrongForm[0] = 0x05
        let badPublicKeys: [[UInt8]] = [
            [], Array(publicKey.dropFirst()), publicKey + [0x00],
            [0x02] + publicKey[1..<33],  // compressed form
            wrongForm, offCurve, [0x04] + [UInt8](repeating: 0, count: 64),
        ]
        for key in badPublicKeys {
            #expect(throws: WebPushCipher.Failure.invalidPublicKey) {
                try WebPushCipher.seal(plaintext, publicKey: key, authSecret: authSecret)
            }
        }
        for secret in [[], Array(authSecret.dropLast()), authSecret + [0x00]] {
            #expect(throws: WebPushCipher.Failure.invalidAuthSecret) {
                try WebPushCipher.seal(plaintext, publicKey: publicKey, authSecret: secret)
            }
        }
        let asPrivate = try bytes(Appendix.asPrivate)
        let badPrivateKeys: [[UInt8]] = [
            Array(asPrivate.dropLast()), asPrivate + [0x00], [UInt8](repeating: 0, count: 32), [UInt8](repeating: 0xFF, count: 32),
        ]
        for key in badPrivateKeys {
            #expect(throws: WebPushCipher.Failure.invalidPrivateKey) {
                try WebPushCipher.seal(plaintext, publicKey: publicKey, authSecret: authSecret, ephemeralPrivateKey: key)
            }
            #expect(throws: WebPushCipher.Failure.invalidPrivateKey) {
                try WebPushCipher.open(bytes(Appendix.body), privateKey: key, authSecret: authSecret)
            }
        }
        #expect(throws: WebPushCipher.Failure.invalidSalt) {
            try WebPushCipher.seal(plaintext, publicKey: publicKey, authSecret: authSecret, salt: [UInt8](repeating: 1, count: 15))
        }
    }

    @Test func aPlaintextLargerThanOneRecordIsRefused() throws {
        let publicKey = try bytes(Appendix.uaPublic)
        let authSecret = try bytes(Appendix.authSecret)
        // One record holds the plaintext, the 0x02 delimiter and the 16-byte tag.
        let fits = try WebPushCipher.seal([UInt8](repeating: 0x61, count: 4096 - 17), publicKey: publicKey, authSecret: authSecret)
        #expect(fits.count == 86 + 4096)
        #expect(throws: WebPushCipher.Failure.tooLarge) {
            try WebPushCipher.seal([UInt8](repeating: 0x61, count: 4096 - 16), publicKey: publicKey, authSecret: authSecret)
        }
        #expect(throws: WebPushCipher.Failure.tooLarge) {
            try WebPushCipher.seal([UInt8](repeating: 0x61, count: 84), publicKey: publicKey, authSecret: authSecret, recordSize: 100)
        }
        #expect(throws: WebPushCipher.Failure.invalidRecordSize) {
            try WebPushCipher.seal([], publicKey: publicKey, authSecret: authSecret, recordSize: 17)
        }
    }

    @Test func tamperedOrMalformedBodiesAreRefused() throws {
        let body = try bytes(Appendix.body)
        let privateKey = try bytes(Appendix.uaPrivate)
        let authSecret = try bytes(Appendix.authSecret)
        for index in [0, 15, 86, 100, body.count - 1] {
            var tampered = body
            tampered[index] ^= 0x80
            #expect(throws: WebPushCipher.Failure.cannotDecrypt, "byte \(index)") {
                try WebPushCipher.open(tampered, privateKey: privateKey, authSecret: authSecret)
            }
        }
        var wrongSecret = authSecret
        wrongSecret[0] ^= 0x01
        #expect(throws: WebPushCipher.Failure.cannotDecrypt) {
            try WebPushCipher.open(body, privateKey: privateKey, authSecret: wrongSecret)
        }
        var shortKeyID = body
        shortKeyID[20] = 64
        var tinyRecordSize = body
        tinyRecordSize[16..<20] = [0, 0, 0, 17]
        var offCurveKeyID = body
        offCurveKeyID[85] ^= 0x01
        for malformed in [[], Array(body.prefix(102)), shortKeyID, tinyRecordSize, offCurveKeyID] {
            #expect(throws: WebPushCipher.Failure.malformed) {
                try WebPushCipher.open(malformed, privateKey: privateKey, authSecret: authSecret)
            }
        }
    }
}
