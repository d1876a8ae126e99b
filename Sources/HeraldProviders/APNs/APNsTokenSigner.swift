import Crypto
import Foundation
import HeraldCore

/// Signs and caches the APNs provider token (ES256 JWT) of one key. Apple rejects tokens over an
/// hour old and refreshes more often than every 20 minutes, so a token is reused for
/// `refreshAfter` (50 minutes), never renewed before `minimumAge` (20 minutes) unless APNs said
/// `ExpiredProviderToken` — then once per token.
public actor APNsTokenSigner {
    public struct Token: Sendable, Equatable {
        public let value: String
        public let issuedAt: Date
    }

    private let key: P256.Signing.PrivateKey
    private let keyId: String
    private let teamId: String
    private let clock: any WallClock
    private var current: Token?
    private var forcedRenewal: String?
    public private(set) var signatures = 0

    public static let minimumAge: TimeInterval = 20 * 60
    public static let refreshAfter: TimeInterval = 50 * 60

    public init(privateKeyPEM: String, keyId: String, teamId: String, clock: any WallClock = SystemWallClock()) throws {
        self.key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        self.keyId = keyId
        self.teamId = teamId
        self.clock = clock
    }

    /// The token to send now.
    public func token() throws -> Token {
        let now = clock.now()
        if let current, now.timeIntervalSince(current.issuedAt) < Self.refreshAfter {
            return current
        }
        return try sign(at: now)
    }

    /// APNs answered `ExpiredProviderToken` for `rejected`. Renews the token unless it was
    /// already renewed; a token younger than ``minimumAge`` is renewed once, not again (APNs
    /// would answer `TooManyProviderTokenUpdates`, and the cause is then a clock, not the token).
    /// Returns whether a fresh token is there to retry with.
    public func renew(after rejected: Token) throws -> Bool {
        guard let current, current.value == rejected.value else { return true }
        let young = clock.now().timeIntervalSince(current.issuedAt) < Self.minimumAge
        if young && forcedRenewal == current.value { return false }
        let token = try sign(at: clock.now())
        forcedRenewal = young ? token.value : nil
        return true
    }

    private func sign(at date: Date) throws -> Token {
        let header = #"{"alg":"ES256","kid":"\#(keyId)"}"#
        let claims = #"{"iss":"\#(teamId)","iat":\#(Int(date.timeIntervalSince1970))}"#
        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
        let signature = try key.signature(for: Data(signingInput.utf8))
        let token = Token(value: signingInput + "." + Base64URL.encode(signature.rawRepresentation), issuedAt: date)
        current = token
        signatures += 1
        return token
    }
}
