import Foundation
import HeraldModels

/// The ports the delivery engine works through.
public struct EnginePorts: Sendable {
    public var apps: any AppRepository
    public var groups: any GroupRepository
    public var providers: any ProviderRepository
    public var tokens: any PushTokenRepository
    public var events: any EventRepository
    public var deliveries: any DeliveryRepository
    public var preferences: any PreferenceRepository
    public var templates: any TemplateRepository
    public var unread: any UnreadRepository
    public var directory: any RecipientDirectory
    public var presence: any PresenceView
    public var realtime: any RealtimeDelivery
    public var gateway: any PushGateway
    public var observer: any EngineObserver
    /// Feed items, for campaign pushes (whose deliveries name an item instead of an event).
    public var feed: (any FeedRepository)?

    public init(apps: any AppRepository, groups: any GroupRepository, providers: any ProviderRepository, tokens: any PushTokenRepository,
                events: any EventRepository, deliveries: any DeliveryRepository, preferences: any PreferenceRepository,
                templates: any TemplateRepository, unread: any UnreadRepository, directory: any RecipientDirectory,
                presence: any PresenceView, realtime: any RealtimeDelivery, gateway: any PushGateway, observer: any EngineObserver = SilentObserver(),
                feed: (any FeedRepository)? = nil) {
        self.feed = feed
        self.apps = apps
        self.groups = groups
        self.providers = providers
        self.tokens = tokens
        self.events = events
        self.deliveries = deliveries
        self.preferences = preferences
        self.templates = templates
        self.unread = unread
        self.directory = directory
        self.presence = presence
        self.realtime = realtime
        self.gateway = gateway
        self.observer = observer
    }
}

/// An app as the engine needs it: settings, credentials by id, templates. Reloaded every few
/// seconds, so a changed setting or credential takes effect without a restart.
public struct AppSnapshot: Sendable {
    public var app: App
    public var providers: [String: ProviderCredential]
    public var templates: [PushTemplate]

    public var settings: PushSettings { app.settings }
}

/// What the engine keeps between batches: app snapshots, and events resolved for retries.
public actor EngineContext {
    private let ports: EnginePorts
    private let maxAge: Duration
    private var apps: [String: (snapshot: AppSnapshot?, loaded: ContinuousClock.Instant)] = [:]
    private var resolved: [String: ResolvedEvent] = [:]

    public init(ports: EnginePorts, maxAge: Duration = .seconds(2)) {
        self.ports = ports
        self.maxAge = maxAge
    }

    /// The app, its providers and templates; nil if the app is gone.
    public func app(_ appId: String) async throws -> AppSnapshot? {
        if let cached = apps[appId], ContinuousClock.now - cached.loaded < maxAge { return cached.snapshot }
        guard let app = try await ports.apps.app(id: appId) else {
            apps[appId] = (nil, .now)
            return nil
        }
        let providers = try await ports.providers.providers(appId: appId)
        let snapshot = AppSnapshot(app: app, providers: Dictionary(providers.map { ($0.providerId, $0) }, uniquingKeysWith: { $1 }),
                                   templates: try await ports.templates.templates(appId: appId))
        apps[appId] = (snapshot, .now)
        return snapshot
    }

    /// Forgets an app's snapshot (a credential broke, a template changed).
    public func invalidate(appId: String) {
        apps[appId] = nil
    }

    /// An event resolved against the directory, for a push sent again (kept for the next retry).
    public func resolvedEvent(appId: String, eventId: String) async throws -> ResolvedEvent? {
        if let known = resolved[eventId] { return known }
        guard let stored = try await ports.events.storedEvent(appId: appId, id: eventId), let snapshot = try await app(appId) else { return nil }
        let users = try await ports.directory.users(appId: appId, uids: ResolvedEvent.namedUids(stored.event))
        var group: Group?
        if let guid = ResolvedEvent.namedGroup(stored.event) { group = try await ports.groups.group(appId: appId, guid: guid) }
        let event = ResolvedEvent.resolve(stored.event, app: snapshot.app, users: users, group: group)
        if resolved.count >= 10_000 { resolved.removeAll(keepingCapacity: true) }
        resolved[eventId] = event
        return event
    }
}

/// Rendered titles and bodies of one batch, each (event, locale) rendered once.
struct TextCache {
    private var texts: [String: RenderedText] = [:]

    mutating func text(_ event: ResolvedEvent, locale: String?, snapshot: AppSnapshot) -> RenderedText {
        let key = event.event.id + "\u{0}" + (locale ?? "")
        if let known = texts[key] { return known }
        let template = PushTemplate.pick(event.templateType, event.receiverType, locale: locale, from: snapshot.templates,
                                         format: snapshot.settings.payloadFormat)
        let text = RenderedText.render(template, event, hideText: snapshot.settings.hideMessageText)
        texts[key] = text
        return text
    }
}
