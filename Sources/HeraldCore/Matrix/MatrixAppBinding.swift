import Foundation
import HeraldModels

/// A Matrix `app_id` (exact, or a glob as in Sygnal's configuration: `im.vector.app.*`) bound to
/// one provider of one Herald app, with the options Sygnal's pushkins take.
public struct MatrixAppBinding: Codable, Sendable, Equatable {
    public var pattern: String
    public var appId: String
    public var providerId: String
    /// APNs: the `apns-push-type` (`alert`, `voip`, …).
    public var apnsPushType: String?
    /// APNs: the pushkey is base64 of the device token, sent as hex (Sygnal's `convert_device_token_to_hex`).
    public var convertDeviceTokenToHex: Bool
    /// FCM: merged into each v1 message (Sygnal's `fcm_options`).
    public var fcmOptions: JSONObject?
    /// Web Push: the endpoint hosts (globs) pushes may go to (Sygnal's `allowed_endpoints`).
    public var allowedEndpoints: [String]?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        pattern: String,
        appId: String,
        providerId: String,
        apnsPushType: String? = nil,
        convertDeviceTokenToHex: Bool = true,
        fcmOptions: JSONObject? = nil,
        allowedEndpoints: [String]? = nil,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.pattern = pattern
        self.appId = appId
        self.providerId = providerId
        self.apnsPushType = apnsPushType
        self.convertDeviceTokenToHex = convertDeviceTokenToHex
        self.fcmOptions = fcmOptions
        self.allowedEndpoints = allowedEndpoints
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var isGlob: Bool { pattern.contains { $0 == "*" || $0 == "?" } }

    /// The binding for an app id: the exact one, else the longest matching glob.
    public static func match(_ appId: String, in bindings: [MatrixAppBinding]) -> MatrixAppBinding? {
        if let exact = bindings.first(where: { !$0.isGlob && $0.pattern == appId }) { return exact }
        return bindings.filter { $0.isGlob && Glob.matches($0.pattern, appId) }.max { $0.pattern.count < $1.pattern.count }
    }
}

/// Sygnal's app id globs (`matrix_common.glob_to_regex`): `*` any run, `?` one character,
/// everything else itself; case-sensitive unless asked otherwise.
public enum Glob {
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        matches(Array(pattern), 0, Array(text), 0)
    }

    private static func matches(_ p: [Character], _ i: Int, _ t: [Character], _ j: Int) -> Bool {
        var i = i
        var j = j
        while i < p.count {
            if p[i] == "*" {
                // A run of stars and question marks: at least as many characters as the marks.
                var marks = 0
                while i < p.count && (p[i] == "*" || p[i] == "?") {
                    if p[i] == "?" { marks += 1 }
                    i += 1
                }
                guard j + marks <= t.count else { return false }
                if i == p.count { return true }
                for k in (j + marks)...t.count where matches(p, i, t, k) { return true }
                return false
            }
            guard j < t.count, p[i] == "?" || p[i] == t[j] else { return false }
            i += 1
            j += 1
        }
        return j == t.count
    }
}
