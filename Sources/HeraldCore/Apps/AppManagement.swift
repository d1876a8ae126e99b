import Foundation
import HeraldModels

/// Creating apps, issuing and revoking their API keys, and their push settings.
public struct AppManagement: Sendable {
    let apps: any AppRepository
    let hasher: any SecretHasher
    let clock: any WallClock

    public init(apps: any AppRepository, hasher: any SecretHasher, clock: any WallClock = SystemWallClock()) {
        self.apps = apps
        self.hasher = hasher
        self.clock = clock
    }

    /// API keys start with this prefix so that a key and a session token are told apart at a glance.
    public static let apiKeyPrefix = "hk_"

    public func createApp(name: String, region: String = "us") async throws -> IssuedAPIKey {
        try Validate.text(name, field: "name", maxLength: 200, required: true)
        try Self.validateRegion(region)
        let app = App(id: Identifier.hex(bytes: 8), name: name, region: region, createdAt: clock.now())
        let key = makeKey(appId: app.id)
        try await apps.createApp(app, firstKeyId: key.keyId, keyHash: hasher.hash(key.apiKey))
        return key
    }

    /// Issues a further key; the app's older keys keep working until revoked.
    public func rotateKey(appId: String) async throws -> IssuedAPIKey {
        guard try await apps.app(id: appId) != nil else { throw HeraldError.notFound("app", appId) }
        let key = makeKey(appId: appId)
        try await apps.addKey(appId: appId, keyId: key.keyId, keyHash: hasher.hash(key.apiKey), at: clock.now())
        return key
    }

    public func revokeKey(appId: String, keyId: String) async throws {
        guard try await apps.revokeKey(appId: appId, keyId: keyId, at: clock.now()) else {
            throw HeraldError.notFound("api key", keyId)
        }
    }

    public func settings(appId: String) async throws -> PushSettings {
        guard let app = try await apps.app(id: appId) else { throw HeraldError.notFound("app", appId) }
        return app.settings
    }

    public func updateSettings(appId: String, _ patch: PushSettingsPatch) async throws -> PushSettings {
        var settings = try await self.settings(appId: appId)
        if let enabled = patch.enabled { settings.enabled = enabled }
        if let maxTokensPerUser = patch.maxTokensPerUser {
            guard PushSettings.maxTokensRange.contains(maxTokensPerUser) else {
                throw HeraldError.invalidField(
                    "maxTokensPerUser",
                    "must be between \(PushSettings.maxTokensRange.lowerBound) and \(PushSettings.maxTokensRange.upperBound)"
                )
            }
            settings.maxTokensPerUser = maxTokensPerUser
        }
        if let text = patch.multiDevicePolicy {
            guard let policy = MultiDevicePolicy(rawValue: text) else {
                throw HeraldError.invalidField("multiDevicePolicy", "must be all_offline or any_offline")
            }
            settings.multiDevicePolicy = policy
        }
        if let grace = patch.onlineGraceSeconds {
            settings.onlineGraceSeconds = try Self.inRange(grace, PushSettings.onlineGraceRange, "onlineGraceSeconds")
        }
        if let badge = patch.badge { settings.badge = badge }
        if let include = patch.includeMessageObject { settings.includeMessageObject = include }
        if let text = patch.payloadFormat {
            guard let format = PushSettings.PayloadFormat(rawValue: text) else {
                throw HeraldError.invalidField("payloadFormat", "must be cometchat or sendbird")
            }
            settings.payloadFormat = format
        }
        if let custom = patch.customJSON {
            if let custom, (try JSONValue.object(custom).jsonText()).utf8.count > 2_048 {
                throw HeraldError.invalidField("customJSON", "must be at most 2 KB of JSON (it rides in every push)")
            }
            settings.customJSON = custom
        }
        if let hide = patch.hideMessageText { settings.hideMessageText = hide }
        if let keys = patch.localizationKeys { settings.localizationKeys = keys }
        if let unread = patch.includeConversationUnread { settings.includeConversationUnread = unread }
        if let ttl = patch.chatTTLSeconds { settings.chatTTLSeconds = try Self.inRange(ttl, PushSettings.chatTTLRange, "chatTTLSeconds") }
        if let ttl = patch.callTTLSeconds { settings.callTTLSeconds = try Self.inRange(ttl, PushSettings.callTTLRange, "callTTLSeconds") }
        if let preferences = patch.defaultPreferences { settings.defaultPreferences = try preferences.validated() }
        if let days = patch.retentionDays { settings.retentionDays = try Self.inRange(days, PushSettings.retentionRange, "retentionDays") }
        if let clear = patch.clearOnRead { settings.clearOnRead = clear }
        if let seconds = patch.clearCoalesceSeconds {
            settings.clearCoalesceSeconds = try Self.inRange(seconds, PushSettings.clearCoalesceRange, "clearCoalesceSeconds")
        }
        if let seconds = patch.burstWindowSeconds {
            settings.burstWindowSeconds = try Self.inRange(seconds, PushSettings.burstWindowRange, "burstWindowSeconds")
        }
        if let mode = patch.contentMode { settings.contentMode = try ContentMode.named(mode, field: "contentMode") }
        if let channels = patch.androidChannels {
            var merged = settings.androidChannels
            if let id = channels.messages { merged.messages = id }
            if let id = channels.mentions { merged.mentions = id }
            if let id = channels.calls { merged.calls = id }
            settings.androidChannels = try merged.validated()
        }
        try await apps.updateSettings(appId: appId, settings: settings)
        return settings
    }

    static func inRange(_ value: Int, _ range: ClosedRange<Int>, _ field: String) throws -> Int {
        guard range.contains(value) else {
            throw HeraldError.invalidField(field, "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    private func makeKey(appId: String) -> IssuedAPIKey {
        IssuedAPIKey(appId: appId, keyId: "key_" + Identifier.hex(bytes: 6), apiKey: Self.apiKeyPrefix + Identifier.random(40))
    }

    static func validateRegion(_ region: String) throws {
        guard (1...16).contains(region.count), region.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw HeraldError.invalidField("region", "must be a short label such as us, eu or in")
        }
    }
}
