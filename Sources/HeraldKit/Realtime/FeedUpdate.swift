import Foundation
import HeraldModels

/// A change to the feed, live over the session's WebSocket.
public enum FeedUpdate: Sendable, Equatable {
    /// A new item (CometChat Campaigns' `onMessageReceived`).
    case item(NotificationFeedItem)
    /// The unread count changed.
    case unreadCount(Int)
}
