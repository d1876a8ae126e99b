import Foundation
import HeraldModels

/// Sendbird's two policies for users with several devices.
public enum MultiDevicePolicy: String, Codable, Sendable, CaseIterable {
    /// Push only when no session of the user is online.
    case allOffline = "all_offline"
    /// Push to the tokens of the sessions that are offline.
    case anyOffline = "any_offline"
}
