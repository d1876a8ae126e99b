import Foundation
import HeraldModels

/// Users, groups and memberships of an app, as the admin API syncs them.
public struct Directory: Sendable {
    let users: any UserRepository
    let groups: any GroupRepository
    let hasher: any SecretHasher
    let clock: any WallClock

    /// Uids per `POST /v1/groups/{guid}/members` call.
    public static let maxMembersPerCall = 10_000
    public static let maxPageSize = 1_000

    public init(users: any UserRepository, groups: any GroupRepository, hasher: any SecretHasher, clock: any WallClock = SystemWallClock()) {
        self.users = users
        self.groups = groups
        self.hasher = hasher
        self.clock = clock
    }

    // MARK: Users

    public func putUser(appId: String, uid: String, _ input: UserInput) async throws -> User {
        try await users.upsertUser(appId: appId, try Self.user(uid, input, at: clock.now(), field: { $0 }))
    }

    /// Creates or replaces up to 1,000 users in one transaction (a chat backend's bulk sync).
    /// Every user is checked first; one bad field refuses the whole batch, naming `users[i].field`.
    public func putUsers(appId: String, _ inputs: [(uid: String, input: UserInput)]) async throws -> Int {
        guard (1...1_000).contains(inputs.count) else { throw HeraldError.invalidField("users", "must hold 1 to 1,000 users") }
        let now = clock.now()
        var seen = Set<String>()
        let users = try inputs.enumerated().map { index, item in
            guard seen.insert(item.uid).inserted else { throw HeraldError.invalidField("users[\(index)].uid", "is given twice") }
            return try Self.user(item.uid, item.input, at: now) { "users[\(index)].\($0)" }
        }
        try await self.users.upsertUsers(appId: appId, users)
        return users.count
    }

    static func user(_ uid: String, _ input: UserInput, at now: Date, field: (String) -> String) throws -> User {
        try Validate.identifier(uid, field: field("uid"))
        try Validate.text(input.name, field: field("name"), maxLength: 200, required: true)
        try Validate.text(input.avatar, field: field("avatar"), maxLength: 2048)
        try Validate.text(input.locale, field: field("locale"), maxLength: 35)
        try Validate.text(input.timeZone, field: field("timeZone"), maxLength: 64)
        let tags = input.tags ?? []
        guard tags.count <= 50 else { throw HeraldError.invalidField(field("tags"), "at most 50 tags") }
        for tag in tags { try Validate.text(tag, field: field("tags"), maxLength: 100, required: true) }
        if let locale = input.locale, !isLocale(locale) {
            throw HeraldError.invalidField(field("locale"), "must be a language tag such as en or pt-BR")
        }
        if let timeZone = input.timeZone, TimeZone(identifier: timeZone) == nil {
            throw HeraldError.invalidField(field("timeZone"), "must be an IANA time zone such as Europe/Paris")
        }
        return User(
            uid: uid,
            name: input.name,
            avatar: input.avatar,
            metadata: input.metadata,
            tags: tags,
            locale: input.locale,
            timeZone: input.timeZone,
            createdAt: now,
            updatedAt: now
        )
    }

    public func user(appId: String, uid: String) async throws -> User {
        guard let user = try await users.user(appId: appId, uid: uid) else { throw HeraldError.notFound("user", uid) }
        return user
    }

    /// Deletes the user with their sessions, push tokens and memberships.
    public func deleteUser(appId: String, uid: String) async throws {
        guard try await users.deleteUser(appId: appId, uid: uid) else { throw HeraldError.notFound("user", uid) }
    }

    // MARK: Groups

    public func putGroup(appId: String, guid: String, _ input: GroupInput) async throws -> Group {
        try Validate.identifier(guid, field: "guid")
        try Validate.text(input.name, field: "name", maxLength: 200, required: true)
        try Validate.text(input.icon, field: "icon", maxLength: 2048)
        if let owner = input.owner { try Validate.identifier(owner, field: "owner") }
        guard let type = GroupType(rawValue: input.type) else {
            throw HeraldError.invalidField("type", "must be one of public, private, password")
        }
        var passwordHash: String?
        if type == .password {
            guard let password = input.password, !password.isEmpty else {
                throw HeraldError.invalidField("password", "is required for a password group")
            }
            try Validate.text(password, field: "password", maxLength: 200)
            let salt = Identifier.hex(bytes: 16)
            passwordHash = salt + ":" + hasher.hash(salt + password)
        }
        let now = clock.now()
        let group = Group(
            guid: guid,
            name: input.name,
            icon: input.icon,
            type: type,
            passwordHash: passwordHash,
            metadata: input.metadata,
            owner: input.owner,
            createdAt: now,
            updatedAt: now
        )
        return try await groups.upsertGroup(appId: appId, group)
    }

    public func group(appId: String, guid: String) async throws -> Group {
        guard let group = try await groups.group(appId: appId, guid: guid) else { throw HeraldError.notFound("group", guid) }
        return group
    }

    public func deleteGroup(appId: String, guid: String) async throws {
        guard try await groups.deleteGroup(appId: appId, guid: guid) else { throw HeraldError.notFound("group", guid) }
    }

    public func addMembers(appId: String, guid: String, uids: [String], scope: String?) async throws -> MembersAdded {
        let scope =
            try scope.map { value in
                guard let scope = MemberScope(rawValue: value) else {
                    throw HeraldError.invalidField("scope", "must be one of participant, moderator, admin")
                }
                return scope
            } ?? .participant
        guard !uids.isEmpty else { throw HeraldError.invalidField("uids", "must name at least one user") }
        guard uids.count <= Self.maxMembersPerCall else {
            throw HeraldError.invalidField("uids", "at most \(Self.maxMembersPerCall) per call")
        }
        for uid in uids { try Validate.identifier(uid, field: "uids") }
        guard try await groups.group(appId: appId, guid: guid) != nil else { throw HeraldError.notFound("group", guid) }
        var seen = Set<String>()
        let unique = uids.filter { seen.insert($0).inserted }
        return try await groups.addMembers(appId: appId, guid: guid, uids: unique, scope: scope, at: clock.now())
    }

    public func removeMember(appId: String, guid: String, uid: String) async throws {
        guard try await groups.removeMember(appId: appId, guid: guid, uid: uid) else {
            throw HeraldError.notFound("member", uid)
        }
    }

    public func members(appId: String, guid: String, cursor: String?, limit: Int?) async throws -> Page<GroupMember> {
        let limit = limit ?? 100
        guard (1...Self.maxPageSize).contains(limit) else {
            throw HeraldError.invalidField("limit", "must be between 1 and \(Self.maxPageSize)")
        }
        let after = try cursor.map { try Cursor.decode($0) }
        guard try await groups.group(appId: appId, guid: guid) != nil else { throw HeraldError.notFound("group", guid) }
        let rows = try await groups.members(appId: appId, guid: guid, afterUid: after, limit: limit + 1)
        return Page(probed: rows, limit: limit, key: \.uid)
    }

    static func isLocale(_ value: String) -> Bool {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isLetter || $0.isNumber } }
    }
}
