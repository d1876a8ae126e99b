import Foundation
import HeraldModels

public struct GroupMember: Sendable, Equatable {
    public var uid: String
    public var scope: MemberScope
    public var joinedAt: Date

    public init(uid: String, scope: MemberScope, joinedAt: Date) {
        self.uid = uid
        self.scope = scope
        self.joinedAt = joinedAt
    }
}
