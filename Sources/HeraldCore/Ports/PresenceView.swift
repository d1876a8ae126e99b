import Foundation
import HeraldModels

/// The delivery engine's question: which sessions of these users are online now?
public protocol PresenceView: Sendable {
    /// Online sessions (within the app's grace period) by uid; users with none are absent.
    func onlineSessions(appId: String, uids: [String]) async throws -> [String: [PresenceRecord]]
}
