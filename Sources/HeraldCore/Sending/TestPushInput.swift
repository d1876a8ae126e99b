import Foundation
import HeraldModels

/// A test push as the API takes it.
public struct TestPushInput: Sendable {
    public var pushToken: String?
    public var platform: String?
    public var uid: String?
    public var title: String
    public var body: String
    public var data: [String: String]

    public init(
        pushToken: String? = nil,
        platform: String? = nil,
        uid: String? = nil,
        title: String = "Herald test",
        body: String = "It works.",
        data: [String: String] = [:]
    ) {
        self.pushToken = pushToken
        self.platform = platform
        self.uid = uid
        self.title = title
        self.body = body
        self.data = data
    }
}
