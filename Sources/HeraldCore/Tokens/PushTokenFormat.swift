import Foundation
import HeraldModels

/// What a well-formed token of each kind looks like.
public enum PushTokenFormat {
    /// Normalises and checks a token, or throws `invalidField(field)`.
    /// APNs tokens are hex (Apple's are 32 bytes today; longer ones are allowed) and are
    /// compared in lower case. FCM tokens are opaque printable ASCII without whitespace.
    public static func normalise(_ token: String, kind: PushTokenKind, field: String = "pushToken") throws -> String {
        switch kind {
        case .apnsDevice, .apnsVoIP:
            let hex = token.lowercased()
            guard (64...200).contains(hex.count), hex.count % 2 == 0,
                hex.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) })
            else {
                throw HeraldError.invalidField(field, "an APNs token must be 64 to 200 hexadecimal characters")
            }
            return hex
        case .fcm, .hms:
            guard (20...4096).contains(token.utf8.count),
                token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
            else {
                let name = kind == .fcm ? "an FCM" : "an HMS"
                throw HeraldError.invalidField(field, "\(name) token must be 20 to 4096 printable characters without whitespace")
            }
            return token
        case .webPush, .unifiedPush:
            // The endpoint's address is checked against the webhook policy when it is used.
            guard token.utf8.count <= 2048, !token.contains(where: \.isWhitespace),
                let url = URLComponents(string: token), url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty,
                url.user == nil, url.password == nil
            else {
                throw HeraldError.invalidField(field, "a \(kind.rawValue) endpoint must be an https:// URL of at most 2048 characters")
            }
            return token
        }
    }
}
