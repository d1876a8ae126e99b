import Crypto
import Foundation
import HeraldCore
import HeraldModels

/// Seals and opens the dashboard's cookies: `base64url(JSON).base64url(HMAC-SHA256)`.
struct DashboardCookies: Sendable {
    static let session = "herald_dashboard"
    static let login = "herald_dashboard_login"

    let key: SymmetricKey

    func seal(_ session: DashboardSession) -> String {
        let payload = Base64URL.encode((try? JSONEncoder.dashboard.encode(session)) ?? Data())
        return payload + "." + signature(payload)
    }

    func open(_ value: String, now: Date) -> DashboardSession? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, ConstantTime.equals(Array(signature(String(parts[0])).utf8), Array(parts[1].utf8)),
            let data = Base64URL.decode(parts[0]), let session = try? JSONDecoder.dashboard.decode(DashboardSession.self, from: data),
            session.expires > now
        else { return nil }
        return session
    }

    private func signature(_ payload: String) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: key)))
    }

    /// A `Set-Cookie` value: HTTP-only, same-site strict, the dashboard's path only; `Secure`
    /// when the dashboard is reached over HTTPS.
    static func header(_ name: String, _ value: String, maxAge: Int, secure: Bool) -> String {
        "\(name)=\(value); Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)" + (secure ? "; Secure" : "")
    }

    /// The named cookie of a `Cookie` header.
    static func value(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == name { return String(pair[1]) }
        }
        return nil
    }
}

extension JSONEncoder {
    static let dashboard: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()
}

extension JSONDecoder {
    static let dashboard: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()
}
