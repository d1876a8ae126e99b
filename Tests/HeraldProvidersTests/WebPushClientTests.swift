import Crypto
import Foundation
import HeraldCore
import HeraldModels
import Testing

@testable import HeraldProviders

/// RFC 8292's token and RFC 8030's answers, without a network.
@Suite("Web Push client")
struct WebPushClientTests {
    final class FixedClock: WallClock {
        let date: Date
        init(_ date: Date) { self.date = date }
        func now() -> Date { date }
    }

    @Test
    func theVAPIDTokenNamesTheOriginAndVerifiesWithThePublicKey() throws {
        let key = VAPIDKey.generate()
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let tokens = VAPIDTokens(key: key, subject: "mailto:push@acme.test", clock: FixedClock(now))
        let header = try tokens.authorization(origin: "https://fcm.googleapis.com")
        #expect(header.hasPrefix("vapid t=") && header.hasSuffix(",k=\(key.publicKeyText)"))
        let jwt = String(header.dropFirst("vapid t=".count).prefix { $0 != "," })
        let parts = jwt.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let headerJSON = JSONValue.parsing(Array(try #require(Base64URL.decode(parts[0]))))
        #expect(headerJSON["alg"].string == "ES256" && headerJSON["typ"].string == "JWT")
        let claims = JSONValue.parsing(Array(try #require(Base64URL.decode(parts[1]))))
        #expect(claims["aud"].string == "https://fcm.googleapis.com" && claims["sub"].string == "mailto:push@acme.test")
        #expect(claims["exp"].double == now.timeIntervalSince1970 + 12 * 3_600, "within the 24 hours push services allow")
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(key.privateKey.publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
        // Reused for the origin, one per origin.
        #expect(try tokens.authorization(origin: "https://fcm.googleapis.com") == header)
        #expect(try tokens.authorization(origin: "https://updates.push.services.mozilla.com") != header)
    }

    @Test
    func originsAreSchemeHostAndAPortOtherThan443() {
        #expect(VAPIDTokens.origin(of: "https://fcm.googleapis.com/fcm/send/abc:def") == "https://fcm.googleapis.com")
        #expect(VAPIDTokens.origin(of: "https://Push.Example:443/x") == "https://push.example")
        #expect(VAPIDTokens.origin(of: "https://127.0.0.1:8443/wpush/v2/x") == "https://127.0.0.1:8443")
        #expect(VAPIDTokens.origin(of: "not a url") == nil)
    }

    @Test
    func answersMapToOutcomes() {
        let now = Date()
        #expect(WebPushClient.outcome(status: 201, retryAfter: nil, now: now) == .delivered)
        #expect(WebPushClient.outcome(status: 410, retryAfter: nil, now: now) == .tokenInvalid(since: now, hint: nil))
        #expect(WebPushClient.outcome(status: 404, retryAfter: nil, now: now) == .tokenInvalid(since: now, hint: nil))
        #expect(WebPushClient.outcome(status: 429, retryAfter: .seconds(30), now: now) == .retryLater(after: .seconds(30)))
        #expect(WebPushClient.outcome(status: 503, retryAfter: nil, now: now) == .retryLater(after: nil))
        #expect(WebPushClient.outcome(status: 413, retryAfter: nil, now: now) == .failed)
        // A refused VAPID token fails the push; one user's endpoint cannot stop the provider.
        #expect(WebPushClient.outcome(status: 403, retryAfter: nil, now: now) == .failed)
    }
}
