import Foundation

/// The storage ports. HeraldStorage implements them once on SQLKit for SQLite and PostgreSQL.

/// A stored credential's hash and what it opens (an app id, a session).
public struct HashedCredential<Owner: Sendable>: Sendable {
    public var hash: String
    public var owner: Owner

    public init(hash: String, owner: Owner) {
        self.hash = hash
        self.owner = owner
    }

    /// How many leading characters of a hash the database is asked for.
    public static var lookupPrefixLength: Int { 16 }
}

public protocol AppRepository: Sendable {
    func createApp(_ app: App, firstKeyId: String, keyHash: String) async throws
    func app(id: String) async throws -> App?
    func apps() async throws -> [App]
    func addKey(appId: String, keyId: String, keyHash: String, at: Date) async throws
    /// False if no such unrevoked key.
    func revokeKey(appId: String, keyId: String, at: Date) async throws -> Bool
    func keys(appId: String) async throws -> [APIKeyInfo]
    /// Unrevoked keys whose hash starts with these characters (`Credential.lookupPrefixLength`),
    /// with their app id; the caller compares the whole hash.
    func apiKeys(hashPrefix: String) async throws -> [HashedCredential<String>]
    func updateSettings(appId: String, settings: PushSettings) async throws
}

public protocol UserRepository: Sendable {
    /// Creates or replaces the user; `createdAt` of an existing user is kept. Returns the stored user.
    func upsertUser(appId: String, _ user: User) async throws -> User
    /// Creates or replaces users in one transaction; existing users keep their `createdAt`.
    func upsertUsers(appId: String, _ users: [User]) async throws
    func user(appId: String, uid: String) async throws -> User?
    /// Deletes the user, their sessions, push tokens and memberships. False if there was no such user.
    func deleteUser(appId: String, uid: String) async throws -> Bool
    /// Users whose uid or name contains `query` (case-insensitive), by uid; all users when empty.
    func searchUsers(appId: String, query: String, limit: Int) async throws -> [User]
}

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

public protocol SessionRepository: Sendable {
    func createSession(_ session: Session, tokenHash: String) async throws
    /// Sessions whose token hash starts with these characters, for the caller to compare whole.
    func sessions(tokenHashPrefix: String) async throws -> [HashedCredential<Session>]
    func sessions(appId: String, uid: String) async throws -> [Session]
    /// Deletes the session and the push tokens registered through it.
    func deleteSession(appId: String, uid: String, sessionId: String) async throws -> Bool
    /// Sessions whose expiry passed before `before` (all apps).
    func expiredSessions(before: Date, limit: Int) async throws -> [Session]
}

public enum ProviderDeletion: Sendable, Equatable {
    case deleted(tokensRemoved: Int)
    case inUse(tokens: Int)
    case notFound
}

public protocol ProviderRepository: Sendable {
    /// False if the app already has a provider with this id.
    func insertProvider(_ credential: ProviderCredential) async throws -> Bool
    func updateProvider(_ credential: ProviderCredential) async throws
    func provider(appId: String, providerId: String) async throws -> ProviderCredential?
    func providers(appId: String) async throws -> [ProviderCredential]
    func deleteProvider(appId: String, providerId: String, force: Bool) async throws -> ProviderDeletion
    /// Marks the credential unusable (a provider said so), unless it changed since `version`.
    func markProviderBroken(appId: String, providerId: String, reason: String, at: Date, version: Date) async throws
}

public protocol PushTokenRepository: Sendable {
    /// Registers or refreshes a token atomically: moves it from another user if needed, removes
    /// the user's other tokens of the same kind when `unique`, and evicts the least recently
    /// registered tokens beyond `maxPerUser`, also under concurrent registrations.
    func register(_ token: PushToken, unique: Bool, maxPerUser: Int) async throws -> TokenRegistration
    func tokens(appId: String, uid: String) async throws -> [PushToken]
    func tokens(appId: String, sessionId: String) async throws -> [PushToken]
    func deleteToken(appId: String, uid: String, token: String) async throws -> Bool
    func deleteTokens(appId: String, sessionId: String) async throws -> Int
    /// Removes a token the provider declared dead and records why and when. False if it was not registered.
    func prune(appId: String, token: String, reason: String, hint: String?, invalidSince: Date?, at: Date) async throws -> Bool
    func prunedTokens(appId: String, uid: String?, limit: Int) async throws -> [PrunedToken]
}

/// A token removed because its provider said it will never work again.
public struct PrunedToken: Sendable, Equatable {
    public var token: PushToken
    public var reason: String
    public var hint: String?
    public var invalidSince: Date?
    public var prunedAt: Date

    public init(token: PushToken, reason: String, hint: String?, invalidSince: Date?, prunedAt: Date) {
        self.token = token
        self.reason = reason
        self.hint = hint
        self.invalidSince = invalidSince
        self.prunedAt = prunedAt
    }
}

/// Everything the server needs from storage.
public typealias HeraldRepositories = AppRepository & UserRepository & GroupRepository & SessionRepository
    & ProviderRepository & PushTokenRepository
