import Foundation

/// `GET/PATCH /v1/me/preferences`, `PUT/DELETE /v1/me/mutes/{conversationId}`.
public struct PreferenceManagement: Sendable {
    let apps: any AppRepository
    let users: any UserRepository
    let preferences: any PreferenceRepository
    let clock: any WallClock

    public init(apps: any AppRepository, users: any UserRepository, preferences: any PreferenceRepository, clock: any WallClock = SystemWallClock()) {
        self.apps = apps
        self.users = users
        self.preferences = preferences
        self.clock = clock
    }

    public func effective(appId: String, uid: String) async throws -> EffectivePreferences {
        guard let app = try await apps.app(id: appId) else { throw HeraldError.notFound("app", appId) }
        guard try await users.user(appId: appId, uid: uid) != nil else { throw HeraldError.notFound("user", uid) }
        let own = try await preferences.preferences(appId: appId, uids: [uid])[uid] ?? .init()
        let merged = own.over(app.settings.defaultPreferences)
        let now = clock.now()
        return EffectivePreferences(
            events: Dictionary(uniqueKeysWithValues: EventKind.notifiable.map { ($0, merged.allows($0)) }),
            groupMentionsOnly: merged.groupMentionsOnly ?? false,
            doNotDisturb: merged.doNotDisturb,
            mutes: try await preferences.mutes(appId: appId, uid: uid).filter { $0.isActive(at: now) },
            keywords: merged.keywords ?? [],
            contentMode: own.contentMode
        )
    }

    /// Merges a change into the user's own preferences (an event type given replaces only itself).
    public func update(
        appId: String,
        uid: String,
        events: [EventKind: Bool]?,
        groupMentionsOnly: Bool?,
        doNotDisturb: NotificationPreferences.DoNotDisturb?,
        keywords: [String]? = nil,
        contentMode: String? = nil
    ) async throws -> EffectivePreferences {
        var own = try await preferences.preferences(appId: appId, uids: [uid])[uid] ?? .init()
        if let events { own.events = (own.events ?? [:]).merging(events) { $1 } }
        if let groupMentionsOnly { own.groupMentionsOnly = groupMentionsOnly }
        if let doNotDisturb { own.doNotDisturb = doNotDisturb }
        if let keywords { own.keywords = keywords.isEmpty ? nil : keywords }
        // "" returns the user to the app's content mode.
        if let contentMode { own.contentMode = contentMode.isEmpty ? nil : try ContentMode.named(contentMode, field: "contentMode") }
        try await preferences.setPreferences(appId: appId, uid: uid, try own.validated(), at: clock.now())
        return try await effective(appId: appId, uid: uid)
    }

    public func mute(appId: String, uid: String, conversationId: String, until: Date?) async throws -> ConversationMute {
        try Validate.text(conversationId, field: "conversationId", maxLength: 250, required: true)
        if let until, until <= clock.now() { throw HeraldError.invalidField("until", "must be in the future") }
        let mute = ConversationMute(conversationId: conversationId, until: until)
        try await preferences.setMute(appId: appId, uid: uid, mute, at: clock.now())
        return mute
    }

    public func unmute(appId: String, uid: String, conversationId: String) async throws {
        guard try await preferences.deleteMute(appId: appId, uid: uid, conversationId: conversationId) else {
            throw HeraldError.notFound("mute", conversationId)
        }
    }
}
