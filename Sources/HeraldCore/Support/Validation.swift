/// Field checks shared by the use cases. Each throws `HeraldError.invalidField` naming the field.
enum Validate {
    // Every event of every post is read through these: the field's name is made only for an
    // error, and the checks read UTF-8 bytes (a character count only when the bytes could be
    // too many; a control character is always one byte below 0x20).

    /// Identifiers chosen by the integrator (uid, guid, providerId): 1–100 characters of
    /// letters, digits and `_ - . @`.
    static func identifier(_ value: String, field: @autoclosure () -> String, maxLength: Int = 100) throws {
        guard !value.isEmpty, value.utf8.count <= maxLength || value.count <= maxLength else {
            throw HeraldError.invalidField(field(), "must be 1 to \(maxLength) characters")
        }
        let allowed = value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "@"):
                true
            default: false
            }
        }
        guard allowed else {
            throw HeraldError.invalidField(field(), "may contain only letters, digits and _ - . @")
        }
    }

    static func text(_ value: String?, field: @autoclosure () -> String, maxLength: Int, required: Bool = false) throws {
        guard let value else {
            if required { throw HeraldError.invalidField(field(), "is required") }
            return
        }
        if required, !value.startsWithVisibleASCII, value.trimmingWhitespace().isEmpty {
            throw HeraldError.invalidField(field(), "must not be empty")
        }
        guard value.utf8.count <= maxLength || value.count <= maxLength else {
            throw HeraldError.invalidField(field(), "must be at most \(maxLength) characters")
        }
        // NUL and other C0 controls (but tab and line breaks) are never text; PostgreSQL refuses NUL.
        guard !value.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            throw HeraldError.invalidField(field(), "must not contain control characters")
        }
    }
}

extension String {
    /// Starts with a printable ASCII character (so is not all whitespace).
    var startsWithVisibleASCII: Bool {
        guard let first = utf8.first else { return false }
        return first > 0x20 && first < 0x7F
    }

    func trimmingWhitespace() -> Substring {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return self[start...end]
    }
}
