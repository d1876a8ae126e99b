import Foundation
import HeraldModels

/// Sends a prepared push with a stored credential. Implemented by the provider clients.
public protocol PushGateway: Sendable {
    func send(_ push: OutgoingPush, credential: ProviderCredential) async -> PushResult
    /// Sends pushes of one credential together; the results are in the order of the pushes.
    func send(_ pushes: [OutgoingPush], credential: ProviderCredential) async -> [PushResult]
}
