import Foundation

/// Who is calling: an app's admin (API key) or a user's session (auth token).
public enum Principal: Sendable, Equatable {
    case admin(appId: String)
    case user(Session)

    public var appId: String {
        switch self {
        case .admin(let appId): appId
        case .user(let session): session.appId
        }
    }
}
