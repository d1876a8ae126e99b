import Foundation
import HeraldModels

public enum MemberScope: String, Sendable, CaseIterable {
    case participant
    case moderator
    case admin
}
