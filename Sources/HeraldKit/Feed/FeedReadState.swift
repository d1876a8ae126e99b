import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HeraldModels

/// Which items to fetch (CometChat Campaigns' `FeedReadState`).
public enum FeedReadState: String, Sendable, CaseIterable {
    case read, unread
}
