import Foundation
import HeraldModels

/// A chat user as a push names them.
public struct ChatUser: Sendable, Equatable {
    public var uid: String
    public var name: String
    public var avatar: String?
    public var role: String?
    public var status: String?

    public init(uid: String, name: String, avatar: String? = nil, role: String? = nil, status: String? = nil) {
        self.uid = uid
        self.name = name
        self.avatar = avatar
        self.role = role
        self.status = status
    }
}
