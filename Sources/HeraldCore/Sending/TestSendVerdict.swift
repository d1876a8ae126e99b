import Foundation
import HeraldModels

/// The verdict on one test push.
public struct TestSendVerdict: Sendable {
    public var providerId: String
    public var pushToken: String?
    public var platform: PushPlatform?
    public var result: PushResult
    /// The token was removed because the provider said it will never work again.
    public var pruned: Bool
}
