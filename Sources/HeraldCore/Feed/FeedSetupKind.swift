import Foundation
import HeraldModels

/// The three kinds of feed set-up, stored alike: an id and a JSON body per app.
public enum FeedSetupKind: String, Sendable, CaseIterable {
    case channel, category, template
}
