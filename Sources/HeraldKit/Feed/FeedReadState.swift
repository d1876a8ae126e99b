import Foundation
import HeraldModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which items to fetch (CometChat Campaigns' `FeedReadState`).
public enum FeedReadState: String, Sendable, CaseIterable {
    case read, unread
}
