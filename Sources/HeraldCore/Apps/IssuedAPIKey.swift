import Foundation
import HeraldModels

/// A newly minted API key: the only moment the secret exists in clear.
public struct IssuedAPIKey: Sendable {
    public var appId: String
    public var keyId: String
    public var apiKey: String
}
