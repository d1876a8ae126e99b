import Crypto
import Foundation
import HeraldCore
import HeraldModels
import NIOConcurrencyHelpers

/// RFC 8292's `Authorization: vapid t=<JWT>,k=<public key>` for each push service origin: an
/// ES256 JWT with `aud` = the origin, `exp` 12 hours ahead (push services refuse more than 24)
/// and `sub` = the provider's contact, signed once per origin and reused until an hour is left.
final class VAPIDTokens: Sendable {
    private let key: P256.Signing.PrivateKey
    private let subject: String
    private let publicKey: String
    private let clock: any WallClock
    private let cache = NIOLockedValueBox<[String: (header: String, expiresAt: Date)]>([:])

    static let lifetime: TimeInterval = 12 * 3_600
    static let renewal: TimeInterval = 3_600

    init(key: VAPIDKey, subject: String, clock: any WallClock) {
        self.key = key.privateKey
        self.subject = subject
        self.publicKey = key.publicKeyText
        self.clock = clock
    }

    /// The header's value for an origin (`https://host[:port]`).
    func authorization(origin: String) throws -> String {
        let now = clock.now()
        if let cached = cache.withLockedValue({ $0[origin] }), cached.expiresAt.timeIntervalSince(now) > Self.renewal { return cached.header }
        let expiresAt = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + Self.lifetime).rounded(.down))
        let header = "vapid t=\(try Self.jwt(audience: origin, subject: subject, expiresAt: expiresAt, key: key)),k=\(publicKey)"
        cache.withLockedValue { $0[origin] = (header, expiresAt) }
        return header
    }

    /// `base64url(header).base64url(claims).base64url(r ‖ s)`.
    static func jwt(audience: String, subject: String, expiresAt: Date, key: P256.Signing.PrivateKey) throws -> String {
        let header = JSONValue.object(["typ": .string("JWT"), "alg": .string("ES256")]).jsonBytes()
        let claims = JSONValue.object([
            "aud": .string(audience), "exp": .number(expiresAt.timeIntervalSince1970.rounded(.down)), "sub": .string(subject),
        ]).jsonBytes()
        let signingInput = Base64URL.encode(Data(header)) + "." + Base64URL.encode(Data(claims))
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The origin of an endpoint: scheme, host and a port other than 443, as `aud` must name it.
    static func origin(of endpoint: String) -> String? {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty
        else {
            return nil
        }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = url.port, !(scheme == "https" && port == 443) { return "\(scheme)://\(shownHost):\(port)" }
        return "\(scheme)://\(shownHost)"
    }
}
