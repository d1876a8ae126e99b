import Foundation
import HeraldModels

/// A publish/subscribe channel between Herald processes (PostgreSQL `LISTEN/NOTIFY`).
public protocol MessageBus: Sendable {
    func publish(_ payload: String, channel: String) async throws
    /// Calls `handler` for every message on `channel` until the task is cancelled.
    func listen(channel: String, handler: @escaping @Sendable (String) async -> Void) async throws
}
