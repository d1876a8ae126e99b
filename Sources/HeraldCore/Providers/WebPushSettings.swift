import Foundation
import HeraldModels

/// A Web Push credential's safe half: the VAPID contact (`sub` of every token, RFC 8292 §2.1) and
/// the application server's public key that browsers subscribe with (`applicationServerKey`).
public struct WebPushSettings: Sendable, Equatable {
    /// A `mailto:` address or an `https:` URL: push services (Apple's among them) refuse others.
    public var subject: String
    /// The VAPID public key, 65 bytes uncompressed P-256, base64url without padding.
    public var publicKey: String

    public init(subject: String, publicKey: String) {
        self.subject = subject
        self.publicKey = publicKey
    }

    /// Checks a VAPID subject: `mailto:` with an address, or an `https:` URL with a host.
    public static func checkSubject(_ subject: String, field: String = "subject") throws {
        let lowered = subject.lowercased()
        if lowered.hasPrefix("mailto:") {
            let address = subject.dropFirst("mailto:".count)
            let parts = address.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !address.contains(where: \.isWhitespace), subject.count <= 320 else {
                throw HeraldError.invalidField(field, "a mailto: subject needs an address, such as mailto:push@example.com")
            }
            return
        }
        guard lowered.hasPrefix("https://"), subject.count <= 2048, let url = URLComponents(string: subject), let host = url.host, !host.isEmpty
        else {
            throw HeraldError.invalidField(field, "must be a mailto: address or an https: URL (push services refuse other subjects)")
        }
    }
}
