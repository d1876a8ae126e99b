import Foundation
import HeraldModels

/// Sends envelopes to sessions over their WebSockets, wherever they are connected.
public protocol RealtimeDelivery: Sendable {
    /// Returns the ids of the sessions the envelope was handed to (an open socket on this process,
    /// or on a live process it was forwarded to).
    func deliver(_ envelope: RealtimeEnvelope, appId: String, sessionIds: [String]) async -> Set<String>
    /// Every connected session of these users.
    func deliver(_ envelope: RealtimeEnvelope, appId: String, uids: [String]) async -> Set<String>
}
