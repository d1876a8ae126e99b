import Foundation
import HeraldModels

public struct GroupActionEvent: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable, CaseIterable {
        case joined, left, kicked, banned, unbanned, added
    }

    public var action: Action
    public var actor: PersonRef
    public var target: PersonRef?
    public var group: GroupRef
    public var sentAt: Date
    public var id: String?

    public var conversationId: String { "group_" + group.guid }
}
