import Foundation
import HeraldModels

public enum FeedMark: String, Sendable {
    case read, delivered
}
