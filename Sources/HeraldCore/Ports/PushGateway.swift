import Foundation
import HeraldModels

/// Sends prepared pushes with a stored credential. Implemented by the provider clients.
public protocol PushGateway: Sendable {
    /// Sends pushes of one credential together; the results are in the order of the pushes.
    func send(_ pushes: [OutgoingPush], credential: ProviderCredential) async -> [PushResult]
}

extension PushGateway {
    public func send(_ push: OutgoingPush, credential: ProviderCredential) async -> PushResult {
        await send([push], credential: credential)[0]
    }
}
