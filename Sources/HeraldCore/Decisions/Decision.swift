import Foundation
import HeraldModels

/// The decision for one recipient, with the reason it is recorded with.
public enum Decision: Sendable, Equatable {
    /// Not told, and why.
    case skip(SkipReason)
    /// Told over these open WebSockets instead of a push (`online`).
    case inApp(sessions: [String])
    /// Pushed to these tokens and webhooks; under `any_offline`, online sessions get it in-app too.
    case push(choices: [PushChoice], webhooks: [String], inAppSessions: [String])
}

extension Decision {
    var isSkip: Bool {
        if case .skip = self { return true }
        return false
    }

    /// The decision as counted: `push`, `inapp` or the skip reason.
    var name: String {
        switch self {
        case .skip(let reason): reason.rawValue
        case .inApp: "inapp"
        case .push: "push"
        }
    }

    /// The sessions told in-app (none when skipped).
    var inAppSessions: [String] {
        switch self {
        case .skip: []
        case .inApp(let sessions): sessions
        case .push(_, _, let sessions): sessions
        }
    }
}
