import Foundation
import HeraldModels

/// A custom webhook: where it is, and the Basic-auth user when it asks for one.
public struct WebhookSettings: Sendable, Equatable {
    public var url: String
    public var basicAuthUsername: String?

    public init(url: String, basicAuthUsername: String? = nil) {
        self.url = url
        self.basicAuthUsername = basicAuthUsername
    }
}
