import Foundation
import HeraldModels

/// Who is told, and how: push enabled for the app, then the recipient's
/// preferences (event type, mentions-only — a uid, `mentionsAll` or one of the recipient's
/// keywords —, mute, do-not-disturb, suppressPush), presence under the
/// multi-device policy, then tokens.
public enum Decider {
    public static func decide(
        _ event: ResolvedEvent,
        _ recipient: RecipientFacts,
        settings: PushSettings,
        providers: [String: ProviderCredential],
        now: Date
    ) -> Decision {
        decide(event, recipient, settings: settings, usable: UsableProviders(providers), now: now)
    }

    /// The same with the app's usable credentials worked out before (once per app, not per recipient).
    public static func decide(
        _ event: ResolvedEvent,
        _ recipient: RecipientFacts,
        settings: PushSettings,
        usable providers: UsableProviders,
        now: Date
    ) -> Decision {
        guard settings.enabled else { return .skip(.pushDisabled) }
        if case .message(let message) = event.event.body, message.suppressPush { return .skip(.suppressed) }
        // An edit replaces, a delete takes away, only a notification that was shown.
        if recipient.alerted == false { return .skip(.notAlerted) }
        let preferences = recipient.preferences
        if !preferences.allows(event.event.kind) { return .skip(.preferenceOff) }
        if case .message(let message) = event.event.body, message.receiverType == .group, preferences.groupMentionsOnly == true,
            !Importance.mentions(event.event, uid: recipient.uid, keywords: preferences.keywords ?? [])
        {
            return .skip(.mentionsOnly)
        }
        if recipient.mutes.contains(where: { $0.conversationId == event.conversationId && $0.isActive(at: now) }) {
            return .skip(.muted)
        }
        if preferences.isQuiet(at: now, timeZone: recipient.user?.timeZone, isCall: event.isCall) {
            return .skip(.doNotDisturb)
        }

        let online = Set(recipient.presence.map(\.sessionId))
        let connected = Array(Set(recipient.presence.filter(\.isConnected).map(\.sessionId))).sorted()
        var tokens = recipient.tokens
        switch settings.multiDevicePolicy {
        case .allOffline:
            if !online.isEmpty { return .inApp(sessions: connected) }
        case .anyOffline:
            tokens = tokens.filter { !online.contains($0.sessionId) }
        }
        let usable = tokens.filter { providers.ids.contains($0.providerId) }
        let choices = routes(for: event, usable)
        let webhooks = providers.webhooks
        if choices.isEmpty && webhooks.isEmpty {
            guard connected.isEmpty else { return .inApp(sessions: connected) }
            // A uid the directory does not know has no sessions and so no tokens: say so.
            return .skip(!recipient.tokens.isEmpty ? .noUsableTokens : recipient.user == nil ? .unknownUser : .noTokens)
        }
        return .push(choices: choices, webhooks: webhooks, inAppSessions: connected)
    }

    /// Which tokens an event goes to, and how. Chat events go to device tokens as alerts (a
    /// deleted message's retract as a background push, not to browsers). A call
    /// being set up goes to each device's VoIP token when it has one (Kandy: PushKit for
    /// CallKit), else as an alert; any other call action is a background update.
    static func routes(for event: ResolvedEvent, _ tokens: [PushToken]) -> [PushChoice] {
        guard case .call(let call) = event.event.body else {
            if case .message(let message) = event.event.body, message.action == .deleted {
                // A retract is silent: never to a browser, which must show every push it gets.
                return tokens.filter { $0.kind != .apnsVoIP && !$0.platform.isBrowser }.map { PushChoice(token: $0, route: .background) }
            }
            return tokens.filter { $0.kind != .apnsVoIP }.map { PushChoice(token: $0, route: .alert) }
        }
        guard call.callAction == .initiated else {
            return tokens.filter { $0.kind != .apnsVoIP }.map { PushChoice(token: $0, route: .background) }
        }
        let sessionsWithVoIP = Set(tokens.filter { $0.kind == .apnsVoIP }.map(\.sessionId))
        return tokens.compactMap { token in
            switch token.kind {
            case .apnsVoIP: return PushChoice(token: token, route: .voip)
            case .apnsDevice: return sessionsWithVoIP.contains(token.sessionId) ? nil : PushChoice(token: token, route: .alert)
            case .fcm, .hms, .webPush, .unifiedPush: return PushChoice(token: token, route: .alert)
            }
        }
    }
}
