import Foundation

/// A change that makes cached values stale, as it travels between processes (PostgreSQL's
/// `NOTIFY`, at most 8,000 bytes: a long list of users becomes the whole app).
enum CacheChange: Sendable, Equatable {
    /// An app's settings, providers or templates.
    case app(String)
    /// API keys or sessions (cached by the prefix of their hash: all are dropped).
    case credentials
    /// Users of an app: their row, tokens, preferences and mutes.
    case users(appId: String, uids: [String])
    /// Every user of an app.
    case allUsers(appId: String)
    /// Unread counts of users of an app (committed by a fan-out elsewhere).
    case unread(appId: String, uids: [String])
    /// A token registered for a user (nothing removed).
    case addedToken(appId: String, uid: String)

    /// Whether the writer waits until every live process has dropped it before its write
    /// returns: a revoked key, a deleted token, a disabled provider must never be served after.
    /// Unread counts and additions may arrive a moment later.
    var strict: Bool {
        switch self {
        case .unread, .addedToken: false
        default: true
        }
    }

    static let uidLimit = 300

    var text: String {
        switch self {
        case .app(let appId): "a|" + appId
        case .credentials: "c"
        case .users(let appId, let uids): uids.count > Self.uidLimit ? "A|" + appId : "u|" + appId + "|" + uids.joined(separator: "\u{1}")
        case .allUsers(let appId): "A|" + appId
        case .unread(let appId, let uids): uids.count > Self.uidLimit ? "N|" + appId : "n|" + appId + "|" + uids.joined(separator: "\u{1}")
        case .addedToken(let appId, let uid): "t|" + appId + "|" + uid
        }
    }

    /// A change from its text; `N|app` (every unread count of an app) reads as an unread
    /// change of no listed users and `all` true.
    init?(text: String) {
        let parts = text.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("a", 2): self = .app(parts[1])
        case ("c", 1): self = .credentials
        case ("u", 3): self = .users(appId: parts[1], uids: parts[2].split(separator: "\u{1}").map(String.init))
        case ("A", 2): self = .allUsers(appId: parts[1])
        case ("n", 3): self = .unread(appId: parts[1], uids: parts[2].split(separator: "\u{1}").map(String.init))
        case ("N", 2): self = .unread(appId: parts[1], uids: [])
        case ("t", 3): self = .addedToken(appId: parts[1], uid: parts[2])
        default: return nil
        }
    }
}
