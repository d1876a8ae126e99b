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
    public var claims: any ClaimRepository
    public var windows: any NoticeWindowRepository
    public var observer: any EngineObserver
    /// Feed items, for campaign pushes (whose deliveries name an item instead of an event).
    public var feed: (any FeedRepository)?

    public init(
        apps: any AppRepository,
        groups: any GroupRepository,
        providers: any ProviderRepository,
        tokens: any PushTokenRepository,
        events: any EventRepository,
        deliveries: any DeliveryRepository,
        preferences: any PreferenceRepository,
        templates: any TemplateRepository,
        unread: any UnreadRepository,
        directory: any RecipientDirectory,
        presence: any PresenceView,
        realtime: any RealtimeDelivery,
        gateway: any PushGateway,
        claims: any ClaimRepository,
        windows: any NoticeWindowRepository,
        observer: any EngineObserver = SilentObserver(),
        feed: (any FeedRepository)? = nil
    ) {
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
        self.claims = claims
        self.windows = windows
        self.observer = observer
        self.feed = feed
    }
}
