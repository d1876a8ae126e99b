import Foundation

/// What a delivery tells its recipient about: an event a chat backend posted, or a campaign's
/// feed item (a campaign push).
public enum DeliverySubject: Sendable, Hashable {
    case event(String)
    case feedItem(String)

    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case event
        case feedItem = "feed_item"
    }

    public var id: String {
        switch self {
        case .event(let id), .feedItem(let id): id
        }
    }

    public var kind: Kind {
        switch self {
        case .event: .event
        case .feedItem: .feedItem
        }
    }

    public init(kind: Kind, id: String) {
        switch kind {
        case .event: self = .event(id)
        case .feedItem: self = .feedItem(id)
        }
    }

    /// The event's id, when the subject is an event.
    public var eventId: String? {
        if case .event(let id) = self { return id }
        return nil
    }

    /// The feed item's id, when the subject is a campaign's feed item.
    public var feedItemId: String? {
        if case .feedItem(let id) = self { return id }
        return nil
    }
}
