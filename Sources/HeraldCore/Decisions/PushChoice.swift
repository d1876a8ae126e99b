import Foundation
import HeraldModels

/// One token to push to, and how.
public struct PushChoice: Sendable, Equatable {
    public var token: PushToken
    public var route: PushRoute

    public init(token: PushToken, route: PushRoute) {
        self.token = token
        self.route = route
    }
}
