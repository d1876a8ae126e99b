import Foundation
import HeraldModels

/// The fields an admin sets with `PUT /v1/users/{uid}`.
public struct UserInput: Sendable {
    public var name: String
    public var avatar: String?
    public var metadata: JSONObject?
    public var tags: [String]?
    public var locale: String?
    public var timeZone: String?

    public init(
        name: String,
        avatar: String? = nil,
        metadata: JSONObject? = nil,
        tags: [String]? = nil,
        locale: String? = nil,
        timeZone: String? = nil
    ) {
        self.name = name
        self.avatar = avatar
        self.metadata = metadata
        self.tags = tags
        self.locale = locale
        self.timeZone = timeZone
    }
}
