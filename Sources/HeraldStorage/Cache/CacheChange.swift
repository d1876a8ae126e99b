import Foundation

/// A change that makes cached values stale, as it travels between processes (PostgreSQL's
/// `NOTIFY`, whose payload must stay under 8,000 bytes: a list of users is sent in ``parts``, each
/// of which fits; a list sent whole that does not fit becomes the whole app).
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

    /// The most bytes a change's text may take: PostgreSQL refuses a `NOTIFY` payload of 8,000
    /// bytes or more, and a notice begins `instance sequence confirm ` (13 + up to 20 + 1 + 3).
    static let textLimit = 7_999 - 40

    var text: String {
        switch self {
        case .app(let appId): "a|" + appId
        case .credentials: "c"
        case .users(let appId, let uids): Self.listed("u", appId, uids, else: "A")
        case .allUsers(let appId): "A|" + appId
        case .unread(let appId, let uids): Self.listed("n", appId, uids, else: "N")
        case .addedToken(let appId, let uid): "t|" + appId + "|" + uid
        }
    }

    /// `tag|app|uid␁uid…`, or `wide|app` (every user of the app) when that is over ``textLimit``:
    /// counted in bytes, since a uid may be up to 100 characters (300 uuids are 11,000 bytes).
    private static func listed(_ tag: String, _ appId: String, _ uids: [String], else wide: String) -> String {
        let text = tag + "|" + appId + "|" + uids.joined(separator: "\u{1}")
        return text.utf8.count <= textLimit ? text : wide + "|" + appId
    }

    /// The change in notices that each fit ``textLimit``: a list of users split in as many as it
    /// takes, never widened to the whole app (which would drop every other user's cached values
    /// in every process); any other change as it is.
    var parts: [CacheChange] {
        switch self {
        case .users(_, let uids) where uids.isEmpty, .unread(_, let uids) where uids.isEmpty: [self]
        case .users(let appId, let uids): Self.split(uids, after: "u|" + appId + "|").map { .users(appId: appId, uids: $0) }
        case .unread(let appId, let uids): Self.split(uids, after: "n|" + appId + "|").map { .unread(appId: appId, uids: $0) }
        default: [self]
        }
    }

    /// The most notices a change published on its own is sent in (``CacheBus/publish(_:)``: a
    /// strict one's wait for every process's answers, all at once): ~3,400 uuids, ~11,000 short
    /// uids. A longer list (a bulk import) goes as the whole app, in one notice.
    static let noticesAtMost = 16

    /// The notices a change published on its own is sent in: its ``parts``, or itself (its text
    /// the whole app) when there would be more than ``noticesAtMost``.
    var notices: [CacheChange] {
        let parts = self.parts
        return parts.count <= Self.noticesAtMost ? parts : [self]
    }

    /// `uids` in runs whose text after `prefix`, joined by one byte each, fits ``textLimit``.
    private static func split(_ uids: [String], after prefix: String) -> [[String]] {
        let room = textLimit - prefix.utf8.count
        var runs: [[String]] = []
        var run: [String] = []
        var used = 0
        for uid in uids {
            let bytes = uid.utf8.count
            if !run.isEmpty, used + 1 + bytes > room {
                runs.append(run)
                run = []
                used = 0
            }
            used += run.isEmpty ? bytes : 1 + bytes
            run.append(uid)
        }
        if !run.isEmpty { runs.append(run) }
        return runs
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
