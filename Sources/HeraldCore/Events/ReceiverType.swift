import Foundation
import HeraldModels

public enum ReceiverType: String, Codable, Sendable, CaseIterable {
    case user
    case group
}
