import Crypto
import Foundation
import HeraldCore
import HeraldModels
import HeraldProviders
import HeraldTestSupport
import NIOConcurrencyHelpers
import Testing

/// A clock the test moves by hand.
final class ManualClock: WallClock {
    private let current = NIOLockedValueBox(Date(timeIntervalSince1970: 1_800_000_000))
    func now() -> Date { current.withLockedValue { $0 } }
    func advance(minutes: Double) { current.withLockedValue { $0 = $0.addingTimeInterval(minutes * 60) } }
}

@Suite("APNs provider token rules")
struct APNsTokenSignerTests {
    @Test func tokenShapeAndSignature() async throws {
        let key = P256.Signing.PrivateKey()
        let clock = ManualClock()
        let signer = try APNsTokenSigner(privateKeyPEM: key.pemRepresentation, keyId: Fixtures.apnsKeyId, teamId: "DEF123GHIJ", clock: clock)
        let token = try signer.token()
        let parts = token.value.split(separator: ".")
        #expect(parts.count == 3)
        let header = try JSONValue(jsonBytes: try #require(Base64URL.decode(parts[0])))
        let claims = try JSONValue(jsonBytes: try #require(Base64URL.decode(parts[1])))
        #expect(header["alg"].string == "ES256")
        #expect(header["kid"].string == Fixtures.apnsKeyId)
        #expect(claims["iss"].string == "DEF123GHIJ")
        #expect(claims["iat"].int == 1_800_000_000)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(signature.count == 64)
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(key.publicKey.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8)))
    }

    @Test func reusedForFiftyMinutesThenRefreshedBeforeTheHour() async throws {
        let clock = ManualClock()
        let signer = try APNsTokenSigner(
            privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation,
            keyId: Fixtures.apnsKeyId,
            teamId: "DEF123GHIJ",
            clock: clock
        )
        let first = try signer.token()
        clock.advance(minutes: 19)
        #expect(try signer.token() == first)
        clock.advance(minutes: 30)  // 49 minutes old
        #expect(try signer.token() == first)
        clock.advance(minutes: 1)  // 50 minutes: refreshed, well before the hour
        let second = try signer.token()
        #expect(second != first)
        #expect(second.issuedAt == clock.now())
        #expect(signer.signatures == 2)
    }

    @Test func renewalAfterExpiredProviderToken() async throws {
        let clock = ManualClock()
        let signer = try APNsTokenSigner(
            privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation,
            keyId: Fixtures.apnsKeyId,
            teamId: "DEF123GHIJ",
            clock: clock
        )
        let first = try signer.token()
        clock.advance(minutes: 1)
        // Young token rejected: renewed once…
        #expect(try signer.renew(after: first))
        let second = try signer.token()
        #expect(second != first)
        // …a second rejection of another young, already force-renewed token is not renewed again.
        #expect(try !signer.renew(after: second))
        #expect(try signer.token() == second)
        // A late report about the old token does not renew the current one.
        #expect(try signer.renew(after: first))
        #expect(try signer.token() == second)
        // After 20 minutes the token may be renewed again.
        clock.advance(minutes: 20)
        #expect(try signer.renew(after: second))
        #expect(try signer.token() != second)
        #expect(signer.signatures == 3)
    }
}
