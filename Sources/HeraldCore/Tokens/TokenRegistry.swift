import Foundation
import HeraldModels

/// CometChat "Tokens management": a logged-in session registers and unregisters its device's
/// tokens; Sendbird: at most `maxTokensPerUser` per user, `unique` registration.
public struct TokenRegistry: Sendable {
    let apps: any AppRepository
    let providers: any ProviderRepository
    let tokens: any PushTokenRepository
    let clock: any WallClock

    public init(apps: any AppRepository, providers: any ProviderRepository, tokens: any PushTokenRepository, clock: any WallClock = SystemWallClock())
    {
        self.apps = apps
        self.providers = providers
        self.tokens = tokens
        self.clock = clock
    }

    public func register(
        session: Session,
        pushToken: String,
        platform platformText: String,
        providerId: String,
        unique: Bool,
        encryption: PushEncryptionKeys? = nil
    ) async throws -> TokenRegistration {
        guard let platform = PushPlatform(parsing: platformText) else {
            throw HeraldError.invalidField(
                "platform",
                "'\(platformText)' is not a platform; use one of \(PushPlatform.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        let normalised = try PushTokenFormat.normalise(pushToken, kind: platform.tokenKind)
        if platform == .webPush && encryption == nil {
            throw HeraldError.invalidField("subscription.keys", "a web_push subscription needs its keys (p256dh and auth)")
        }
        guard let provider = try await providers.provider(appId: session.appId, providerId: providerId) else {
            throw HeraldError.invalidField("providerId", "no provider '\(providerId)' in this app")
        }
        let needed = platform.tokenKind.providerKind
        guard provider.kind == needed else {
            throw HeraldError.invalidField(
                "providerId",
                "platform \(platform.rawValue) needs an \(needed.rawValue) provider; '\(providerId)' is \(provider.kind.rawValue)"
            )
        }
        guard provider.config.enabled else {
            throw HeraldError.invalidField("providerId", "provider '\(providerId)' is disabled")
        }
        guard let app = try await apps.app(id: session.appId) else { throw HeraldError.notFound("app", session.appId) }
        // Whole milliseconds, as stored: the answer says the times the token is read back with.
        let now = clock.now().asStored
        let token = PushToken(
            appId: session.appId,
            uid: session.uid,
            sessionId: session.id,
            providerId: providerId,
            platform: platform,
            token: normalised,
            createdAt: now,
            lastSeenAt: now,
            encryption: encryption
        )
        return try await tokens.register(token, unique: unique, maxPerUser: app.settings.maxTokensPerUser)
    }

    public func tokens(ofSession session: Session) async throws -> [PushToken] {
        try await tokens.tokens(appId: session.appId, sessionId: session.id)
    }

    public func tokens(appId: String, uid: String) async throws -> [PushToken] {
        try await tokens.tokens(appId: appId, uid: uid)
    }

    /// Removes one of the caller's tokens.
    public func unregister(session: Session, pushToken: String) async throws {
        let candidates = Set([pushToken, pushToken.lowercased()])
        var removed = false
        for candidate in candidates {
            removed = try await tokens.deleteToken(appId: session.appId, uid: session.uid, token: candidate) || removed
        }
        guard removed else { throw HeraldError.notFound("push token", String(pushToken.prefix(16)) + "…") }
    }

    /// Removes every token registered through this session (CometChat: unregister before logout).
    @discardableResult
    public func unregisterAll(session: Session) async throws -> Int {
        try await tokens.deleteTokens(appId: session.appId, sessionId: session.id)
    }
}
