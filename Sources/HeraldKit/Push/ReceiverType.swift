import Foundation
import HeraldModels

public enum ReceiverType: String, Sendable, Equatable {
    case user, group
}
