import Crypto
import Foundation
import HeraldCore
import HeraldModels

/// Who is signed in to the dashboard: the app, which of its API keys was used (the first 16 hex
/// characters of the key's hash, so revoking the key ends the session), the form token that
/// every POST must carry (CSRF), and when the session ends. Kept in an HTTP-only cookie, signed
/// with a key derived from the master key; nothing is stored on the server.
struct DashboardSession: Codable, Sendable, Equatable {
    var appId: String
    var keyHashPrefix: String
    var csrf: String
    var expires: Date

    static let lifetime: TimeInterval = 12 * 3_600

    static func random() -> String {
        Base64URL.encode(Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }))
    }
}
