import Foundation
import HeraldModels

/// Typed reads of one JSON object, with errors naming `path.field`.
struct FieldReader {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue, path: String) throws {
        guard case .object(let object) = value else {
            throw HeraldError.invalidField(path.isEmpty ? "body" : path, "must be a JSON object")
        }
        self.object = object
        self.path = path
    }

    func field(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

    func raw(_ name: String) -> JSONValue? {
        guard let value = object[name], value != .null else { return nil }
        return value
    }

    func string(_ name: String, required: Bool = false, maxLength: Int = 200) throws -> String? {
        guard let value = raw(name) else {
            if required { throw HeraldError.invalidField(field(name), "is required") }
            return nil
        }
        guard case .string(let text) = value else { throw HeraldError.invalidField(field(name), "must be a string") }
        try Validate.text(text, field: field(name), maxLength: maxLength, required: required)
        return text
    }

    /// A string or a number, as text (ids that backends give either way).
    func scalarText(_ name: String) throws -> String? {
        guard let value = raw(name) else { return nil }
        switch value {
        case .string(let text):
            try Validate.text(text, field: field(name), maxLength: 200)
            return text
        case .number: return value.text
        default: throw HeraldError.invalidField(field(name), "must be a string or a number")
        }
    }

    func bool(_ name: String) throws -> Bool? {
        guard let value = raw(name) else { return nil }
        guard case .bool(let flag) = value else { throw HeraldError.invalidField(field(name), "must be true or false") }
        return flag
    }

    func object(_ name: String) throws -> FieldReader? {
        guard let value = raw(name) else { return nil }
        return try FieldReader(value, path: field(name))
    }

    /// A free-form object of at most 32 KB of JSON.
    func object(limitedTo name: String) throws -> JSONObject? {
        guard let value = raw(name) else { return nil }
        guard case .object(let object) = value else { throw HeraldError.invalidField(field(name), "must be a JSON object") }
        guard (try value.jsonText()).utf8.count <= 32_768 else { throw HeraldError.invalidField(field(name), "must be at most 32 KB of JSON") }
        return object
    }

    func strings(_ name: String, maxCount: Int) throws -> [String]? {
        guard let value = raw(name) else { return nil }
        guard case .array(let items) = value, items.count <= maxCount else {
            throw HeraldError.invalidField(field(name), "must be an array of at most \(maxCount) strings")
        }
        return try items.map { item in
            guard case .string(let text) = item else { throw HeraldError.invalidField(field(name), "must contain strings only") }
            return text
        }
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ name: String, _ type: E.Type, required: Bool = false) throws -> E?
    where E.RawValue == String {
        guard let text = try string(name, required: required) else { return nil }
        guard let value = E(rawValue: text) else {
            throw HeraldError.invalidField(field(name), "must be one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// Unix seconds, Unix milliseconds (13 digits, as CometChat writes `sentAt`), or ISO 8601.
    func date(_ name: String) throws -> Date? {
        guard let value = raw(name) else { return nil }
        switch value {
        case .number(let number):
            guard number > 0, number < 1e14 else { throw HeraldError.invalidField(field(name), "must be a Unix time") }
            return Date(timeIntervalSince1970: number >= 1e11 ? number / 1000 : number)
        case .string(let text):
            if let number = Double(text), number > 0, number < 1e14 { return Date(timeIntervalSince1970: number >= 1e11 ? number / 1000 : number) }
            if let date = ISO8601DateFormatter().date(from: text) { return date }
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = fractional.date(from: text) { return date }
            throw HeraldError.invalidField(field(name), "must be Unix seconds, milliseconds or an ISO 8601 time")
        default:
            throw HeraldError.invalidField(field(name), "must be Unix seconds, milliseconds or an ISO 8601 time")
        }
    }

    /// A uid, or a user object with `uid` and optional `name`, `avatar`, `status`, `role`, `lastActiveAt`.
    func person(_ name: String, required: Bool = false) throws -> PersonRef? {
        guard let value = raw(name) else {
            if required { throw HeraldError.invalidField(field(name), "is required") }
            return nil
        }
        if case .string(let uid) = value {
            try Validate.identifier(uid, field: field(name))
            return PersonRef(uid: uid)
        }
        let person = try FieldReader(value, path: field(name))
        let uid = try person.string("uid", required: true)!
        try Validate.identifier(uid, field: person.field("uid"))
        return PersonRef(
            uid: uid,
            name: try person.string("name"),
            avatar: try person.string("avatar", maxLength: 2_000),
            status: try person.string("status", maxLength: 50),
            role: try person.string("role", maxLength: 100),
            lastActiveAt: try person.date("lastActiveAt").map { Int($0.timeIntervalSince1970) }
        )
    }

    /// A guid, or a group object with `guid` and optional `name`, `icon`, `type`, `membersCount`, `owner`, `createdAt`.
    func group(_ name: String, required: Bool = false) throws -> GroupRef? {
        guard let value = raw(name) else {
            if required { throw HeraldError.invalidField(field(name), "is required") }
            return nil
        }
        if case .string(let guid) = value {
            try Validate.identifier(guid, field: field(name))
            return GroupRef(guid: guid)
        }
        let group = try FieldReader(value, path: field(name))
        let guid = try group.string("guid", required: true)!
        try Validate.identifier(guid, field: group.field("guid"))
        var membersCount: Int?
        if let count = group.raw("membersCount") {
            guard case .number(let number) = count, number >= 0 else {
                throw HeraldError.invalidField(group.field("membersCount"), "must be a number")
            }
            membersCount = Int(number)
        }
        return GroupRef(
            guid: guid,
            name: try group.string("name"),
            icon: try group.string("icon", maxLength: 2_000),
            type: try group.string("type", maxLength: 50),
            membersCount: membersCount,
            owner: try group.string("owner"),
            createdAt: try group.date("createdAt").map { Int($0.timeIntervalSince1970) }
        )
    }
}
