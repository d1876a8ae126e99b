import Foundation
import HeraldCore
import HeraldModels

/// `POST /v1/me/push-tokens`' body (the `PushTokenRequest` schema): a device token, or a browser's
/// Web Push subscription. Read straight from the JSON by ``HotRoutes`` (a login storm registers
/// thousands a second) and from the generated type by the generated handler, with the same
/// answers to the same mistakes as the generated decoding gives.
struct PushTokenRequest: Sendable {
    struct Keys: Sendable {
        var p256dh: String
        var auth: String
    }

    var platform: String
    var providerId: String
    var pushToken: String?
    var unique: Bool?
    var encryption: Keys?
    var subscription: (endpoint: String, keys: Keys)?

    static let fields: Set<String> = ["pushToken", "subscription", "platform", "providerId", "unique", "encryption"]

    /// Reads the JSON body: unknown members refused (a subscription's own extra members, such as
    /// `expirationTime`, are ignored), required ones named, types checked.
    init(json: JSONValue) throws {
        let body = try Members(json, path: "")
        try body.refuseUnknown(Self.fields)
        platform = try body.string("platform", required: true)!
        providerId = try body.string("providerId", required: true)!
        pushToken = try body.string("pushToken")
        unique = try body.bool("unique")
        encryption = try body.object("encryption").map(Self.keys)
        subscription = try body.object("subscription").map { subscription in
            let keys = try subscription.object("keys", required: true)!
            return (try subscription.string("endpoint", required: true)!, try Self.keys(keys))
        }
    }

    init(platform: String, providerId: String, pushToken: String?, unique: Bool?, encryption: Keys?, subscription: (endpoint: String, keys: Keys)?) {
        self.platform = platform
        self.providerId = providerId
        self.pushToken = pushToken
        self.unique = unique
        self.encryption = encryption
        self.subscription = subscription
    }

    private static func keys(_ members: Members) throws -> Keys {
        try members.refuseUnknown(["p256dh", "auth"])
        return Keys(p256dh: try members.string("p256dh", required: true)!, auth: try members.string("auth", required: true)!)
    }

    /// Registers the token for the session's device.
    func register(session: Session, tokens: TokenRegistry) async throws -> TokenRegistration {
        let token: String
        let keys: PushEncryptionKeys?
        if let subscription {
            // A browser's PushSubscription.toJSON(): the endpoint is the token, the keys seal each push.
            guard PushPlatform(parsing: platform)?.tokenKind.providerKind == .webpush else {
                throw HeraldError.invalidField("subscription", "applies only to the web_push and unifiedpush platforms")
            }
            if pushToken != nil { throw HeraldError.invalidField("pushToken", "give either pushToken or subscription, not both") }
            if encryption != nil { throw HeraldError.invalidField("encryption", "a subscription carries its keys in subscription.keys") }
            token = try PushTokenFormat.normalise(subscription.endpoint, kind: .webPush, field: "subscription.endpoint")
            keys = try PushEncryptionKeys(p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, field: "subscription.keys")
        } else {
            guard let pushToken else { throw HeraldError.invalidField("pushToken", "is required (or, for web_push, subscription)") }
            token = pushToken
            keys = try encryption.map { try PushEncryptionKeys(p256dh: $0.p256dh, auth: $0.auth) }
        }
        return try await tokens.register(
            session: session,
            pushToken: token,
            platform: platform,
            providerId: providerId,
            unique: unique ?? false,
            encryption: keys
        )
    }

    /// `PushTokenRegistered`'s JSON text.
    static func answer(_ registration: TokenRegistration) -> [UInt8] {
        let token = registration.token
        var writer = JSONObjectWriter(capacity: 512)
        writer.member("removedTokens", .number(Double(registration.removedTokens.count)))
        writer.member("token") { out in
            var member = JSONObjectWriter(capacity: 384)
            member.member("createdAt", .string(WireTimestamp.format(token.createdAt)))
            member.member("encrypted", .bool(token.encryption != nil))
            member.member("lastSeenAt", .string(WireTimestamp.format(token.lastSeenAt)))
            member.member("platform", .string(token.platform.rawValue))
            member.member("providerId", .string(token.providerId))
            member.member("pushToken", .string(token.token))
            member.member("sessionId", .string(token.sessionId))
            member.member("tokenKind", .string(token.kind.rawValue))
            member.member("uid", .string(token.uid))
            out.append(contentsOf: member.finish())
        }
        return writer.finish()
    }

    /// One JSON object's members, read as the generated decoding reads them: a missing or `null`
    /// optional member is absent, a required one is named, a value of another type is named with
    /// the type it must have.
    struct Members {
        let object: JSONObject
        let path: String

        init(_ value: JSONValue, path: String) throws {
            guard case .object(let object) = value else {
                throw HeraldError.invalidField(path.isEmpty ? "body" : path, "must be of type object")
            }
            self.object = object
            self.path = path
        }

        func field(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

        func refuseUnknown(_ known: Set<String>) throws {
            if let unknown = object.keys.filter({ !known.contains($0) }).min() {
                throw HeraldError.invalidField(field(unknown), "is not a field of this request")
            }
        }

        private func value(_ name: String, required: Bool, type: String) throws -> JSONValue? {
            switch object[name] {
            case nil:
                if required { throw HeraldError.invalidField(field(name), "is required") }
                return nil
            case .null?:
                if required { throw HeraldError.invalidField(field(name), "must be a \(type), not null") }
                return nil
            case let value?:
                return value
            }
        }

        func string(_ name: String, required: Bool = false) throws -> String? {
            guard let value = try value(name, required: required, type: "string") else { return nil }
            guard case .string(let text) = value else { throw HeraldError.invalidField(field(name), "must be of type string") }
            return text
        }

        func bool(_ name: String) throws -> Bool? {
            guard let value = try value(name, required: false, type: "boolean") else { return nil }
            guard case .bool(let flag) = value else { throw HeraldError.invalidField(field(name), "must be of type boolean") }
            return flag
        }

        func object(_ name: String, required: Bool = false) throws -> Members? {
            guard let value = try value(name, required: required, type: "object") else { return nil }
            return try Members(value, path: field(name))
        }
    }
}
