import Crypto
import Foundation
import HeraldCore
import HeraldModels
import NIOConcurrencyHelpers

/// Signs and caches the APNs provider token (ES256 JWT) of one key. Apple rejects tokens over an
/// hour old and refreshes more often than every 20 minutes, so a token is reused for
/// `refreshAfter` (50 minutes), never renewed before `minimumAge` (20 minutes) unless APNs said
/// `ExpiredProviderToken` — then once per token. Every push asks for the token, so it is a lock,
/// not an actor: no hop on the hot path.
public final class APNsTokenSigner: Sendable {
    public struct Token: Sendable, Equatable {
        public let value: String
        public let issuedAt: Date
        /// The `authorization` header value, made once per token.
        public let authorization: String

        init(value: String, issuedAt: Date) {
            self.value = value
            self.issuedAt = issuedAt
            self.authorization = "bearer " + value
        }
    }

    private let key: P256.Signing.PrivateKey
    private let keyId: String
    private let teamId: String
    private let clock: any WallClock
    private let state = NIOLockedValueBox(State())

    private struct State {
        var current: Token?
        var forcedRenewal: String?
        var signatures = 0
    }

    /// How many tokens this signer has signed.
    public var signatures: Int { state.withLockedValue { $0.signatures } }

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
        return try state.withLockedValue { state in
            if let current = state.current, now.timeIntervalSince(current.issuedAt) < Self.refreshAfter {
                return current
            }
            return try sign(at: now, &state)
        }
    }

    /// APNs answered `ExpiredProviderToken` for `rejected`. Renews the token unless it was
    /// already renewed; a token younger than ``minimumAge`` is renewed once, not again (APNs
    /// would answer `TooManyProviderTokenUpdates`, and the cause is then a clock, not the token).
    /// Returns whether a fresh token is there to retry with.
    public func renew(after rejected: Token) throws -> Bool {
        let now = clock.now()
        return try state.withLockedValue { state in
            guard let current = state.current, current.value == rejected.value else { return true }
            let young = now.timeIntervalSince(current.issuedAt) < Self.minimumAge
            if young && state.forcedRenewal == current.value { return false }
            let token = try sign(at: now, &state)
            state.forcedRenewal = young ? token.value : nil
            return true
        }
    }

    private func sign(at date: Date, _ state: inout State) throws -> Token {
        let header = #"{"alg":"ES256","kid":"\#(keyId)"}"#
        let claims = #"{"iss":"\#(teamId)","iat":\#(Int(date.timeIntervalSince1970))}"#
        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
        let signature = try key.signature(for: Data(signingInput.utf8))
        let token = Token(value: signingInput + "." + Base64URL.encode(signature.rawRepresentation), issuedAt: date)
        state.current = token
        state.signatures += 1
        return token
    }
}
