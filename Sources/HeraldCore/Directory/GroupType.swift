import Foundation
import HeraldModels

public enum GroupType: String, Sendable, CaseIterable {
    case `public`
    case `private`
    case password
}
