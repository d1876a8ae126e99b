import Foundation

public protocol GroupRepository: Sendable {
    func upsertGroup(appId: String, _ group: Group) async throws -> Group
    func group(appId: String, guid: String) async throws -> Group?
    func deleteGroup(appId: String, guid: String) async throws -> Bool
    /// Adds existing users as members (or sets their scope). Unknown uids are reported, not added.
    func addMembers(appId: String, guid: String, uids: [String], scope: MemberScope, at: Date) async throws -> MembersAdded
    func removeMember(appId: String, guid: String, uid: String) async throws -> Bool
    /// Members ordered by uid, after `afterUid`.
    func members(appId: String, guid: String, afterUid: String?, limit: Int) async throws -> [GroupMember]
}
