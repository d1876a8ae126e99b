import Foundation
import HeraldCore

/// What the engine and the API read again and again, kept in this process: apps with their
/// providers and templates, API keys and sessions, and per user their row, tokens, preferences
/// and mutes, and the fan-out's record of a recipient (those four with the unread counts). Every
/// write drops (or, for unread counts, updates) what it changed before it returns; with several
/// processes on PostgreSQL the change also travels to the others (``CacheBus``).
final class StoreCache: Sendable {
    struct UserKey: Hashable, Sendable {
        var appId: String
        var uid: String

        /// By the uid alone: most servers hold one app, whose id would be hashed again for every
        /// user looked up. Keys of two apps with the same uid are told apart by `==`.
        func hash(into hasher: inout Hasher) { hasher.combine(uid) }
    }

    /// An app that does not exist is cached as nil (an unknown app id asks the database once).
    let apps = CacheTable<String, App?>(limit: 10_000)
    let providers = CacheTable<String, [ProviderCredential]>(limit: 10_000)
    let templates = CacheTable<String, [PushTemplate]>(limit: 10_000)
    /// By the first characters of the hash.
    let apiKeys = CacheTable<String, [HashedCredential<String>]>(limit: 50_000)
    let sessions = CacheTable<String, [HashedCredential<Session>]>(limit: 200_000)
    /// A uid the directory does not know is cached as nil.
    let users = CacheTable<UserKey, User?>(limit: 500_000)
    let tokens = CacheTable<UserKey, [PushToken]>(limit: 500_000)
    let preferences = CacheTable<UserKey, NotificationPreferences?>(limit: 500_000)
    let mutes = CacheTable<UserKey, [ConversationMute]>(limit: 500_000)
    /// Preferences, mutes, tokens and unread counts as one value (``RecipientRecord``), dropped
    /// by any change to one of them; the unread counts move in place with each fan-out's commit
    /// (the only cache of them).
    let records = CacheTable<UserKey, RecipientRecord>(limit: 500_000)

    func apply(_ change: CacheChange) {
        switch change {
        case .app(let appId):
            apps.forget([appId])
            providers.forget([appId])
            templates.forget([appId])
        case .credentials:
            apiKeys.forgetAll()
            sessions.forgetAll()
        case .users(let appId, let uids):
            let keys = uids.map { UserKey(appId: appId, uid: $0) }
            for table in [users.forget, tokens.forget, preferences.forget, mutes.forget, records.forget] as [([UserKey]) -> Void] { table(keys) }
        case .allUsers:
            users.forgetAll()
            tokens.forgetAll()
            preferences.forgetAll()
            mutes.forgetAll()
            records.forgetAll()
        case .addedToken(let appId, let uid):
            let key = [UserKey(appId: appId, uid: uid)]
            tokens.forget(key)
            records.forget(key)
        case .unread(let appId, let uids):
            if uids.isEmpty { records.forgetAll() } else { records.forget(uids.map { UserKey(appId: appId, uid: $0) }) }
        }
    }
}
