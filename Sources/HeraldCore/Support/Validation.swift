/// Field checks shared by the use cases. Each throws `HeraldError.invalidField` naming the field.
enum Validate {
    /// Identifiers chosen by the integrator (uid, guid, providerId): 1–100 characters of
    /// letters, digits and `_ - . @`.
    static func identifier(_ value: String, field: String, maxLength: Int = 100) throws {
        guard !value.isEmpty, value.count <= maxLength else {
            throw HeraldError.invalidField(field, "must be 1 to \(maxLength) characters")
        }
        let allowed = value.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "@": true
            default: false
            }
        }
        guard allowed else {
            throw HeraldError.invalidField(field, "may contain only letters, digits and _ - . @")
        }
    }

    static func text(_ value: String?, field: String, maxLength: Int, required: Bool = false) throws {
        guard let value else {
            if required { throw HeraldError.invalidField(field, "is required") }
            return
        }
        if required, value.trimmingWhitespace().isEmpty {
            throw HeraldError.invalidField(field, "must not be empty")
        }
        guard value.count <= maxLength else {
            throw HeraldError.invalidField(field, "must be at most \(maxLength) characters")
        }
        // NUL and other C0 controls (but tab and line breaks) are never text; PostgreSQL refuses NUL.
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" }) else {
            throw HeraldError.invalidField(field, "must not contain control characters")
        }
    }
}

extension String {
    func trimmingWhitespace() -> Substring {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return self[start...end]
    }
}
