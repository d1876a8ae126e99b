import Foundation
import HeraldModels

/// A user as an event names them: the uid, and whatever the event says of them inline (which wins
/// over the synced user).
public struct PersonRef: Codable, Sendable, Equatable {
    public var uid: String
    public var name: String?
    public var avatar: String?
    public var status: String?
    public var role: String?
    public var lastActiveAt: Int?

    public init(uid: String, name: String? = nil, avatar: String? = nil, status: String? = nil, role: String? = nil, lastActiveAt: Int? = nil) {
        self.uid = uid
        self.name = name
        self.avatar = avatar
        self.status = status
        self.role = role
        self.lastActiveAt = lastActiveAt
    }
}
