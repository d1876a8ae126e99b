import Foundation
import HeraldModels

/// Opaque paging cursors: base64url of the last key seen.
public enum Cursor {
    public static func encode(_ key: String) -> String {
        Base64URL.encode(Data(key.utf8))
    }

    public static func decode(_ cursor: String) throws -> String {
        // Keys are identifiers and timestamps: no control characters (PostgreSQL refuses NUL in text).
        guard let data = Base64URL.decode(cursor), let key = String(data: data, encoding: .utf8), !key.isEmpty,
            !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw HeraldError.invalidField("cursor", "is not a cursor this API returned")
        }
        return key
    }
}
