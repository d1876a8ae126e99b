import Foundation
import HeraldCore

/// Push Kit's answer body, `{"code":"80000000","msg":"Success","requestId":"…"}`.
struct HMSAnswer: Decodable {
    var code: String?
    var msg: String?
    var requestId: String?

    /// For 80100000 (some tokens failed), `msg` is JSON naming the tokens that failed.
    func failedTokens() -> Set<String> {
        guard let msg, let object = try? JSONSerialization.jsonObject(with: Data(msg.utf8)) as? [String: Any] else { return [] }
        var tokens = Set<String>()
        for key in ["illegal_tokens", "illegalTokens"] {
            if let list = object[key] as? [String] { tokens.formUnion(list) }
            // Newer answers group them by cause: {"illegalTokens":{"noRight":["…"]}}.
            if let groups = object[key] as? [String: [String]] { tokens.formUnion(groups.values.joined()) }
        }
        return tokens
    }
}
