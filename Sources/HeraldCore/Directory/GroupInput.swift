import Foundation
import HeraldModels

public struct GroupInput: Sendable {
    public var name: String
    public var icon: String?
    public var type: String
    public var password: String?
    public var metadata: JSONObject?
    public var owner: String?

    public init(
        name: String,
        icon: String? = nil,
        type: String = "public",
        password: String? = nil,
        metadata: JSONObject? = nil,
        owner: String? = nil
    ) {
        self.owner = owner
        self.name = name
        self.icon = icon
        self.type = type
        self.password = password
        self.metadata = metadata
    }
}
