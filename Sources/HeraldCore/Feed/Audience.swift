import Foundation
import HeraldModels

/// Who a campaign is for.
public enum Audience: Codable, Sendable, Equatable {
    case all
    case uids([String])
    /// Users with any (`all: false`) or all of these tags.
    case tags([String], all: Bool)
    /// Members of any of these groups.
    case groups([String])
}
