import Foundation
import HeraldModels

/// CometChat iOS's message categories.
public enum MessageCategory: String, Sendable, Equatable {
    case message, custom, action, call, interactive
}
