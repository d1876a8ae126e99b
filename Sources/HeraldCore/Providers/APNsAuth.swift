import Foundation
import HeraldModels

/// How an APNs credential authenticates.
public enum APNsAuth: String, Codable, Sendable {
    case token
    case certificate
}
