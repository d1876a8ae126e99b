import Foundation
import HeraldModels

extension PushPayloads {
    // MARK: Web Push and UnifiedPush

    /// A browser's (or UnifiedPush app's) message. The JSON is shaped as the Notification API
    /// takes it, so that a service worker shows it with `registration.showNotification(p.title, p)`:
    /// `title`, `body`, `icon` (the sender's avatar), `tag` = the conversation with `renotify`
    /// (one notification per conversation, alerting again), `timestamp`, `data` = the same
    /// details FCM's data carries (CometChat's or Sendbird's), and `appBadge` for
    /// `navigator.setAppBadge`. Background updates (UnifiedPush only; browsers never get them)
    /// carry `data` alone. Web Push is always sealed to the browser's key, so the `encrypted`
    /// content mode sends what `full` would; `idOnly` sends "New message" and the ids.
    public static func webPush(_ context: PushContext, endpoint: String, route: PushRoute) -> WebPushMessage {
        let shielded = context.contentMode == .idOnly && route == .alert
        var object: JSONObject = [:]
        var data = shielded ? ids(context) : dataFields(context)
        if route == .background {
            object["data"] = .object(data.mapValues(JSONValue.string))
        } else {
            object["title"] = .string(shielded ? newMessageText : context.text.title)
            if !shielded {
                object["body"] = .string(context.text.body)
                if let avatar = context.event.sender.avatar, !avatar.isEmpty { object["icon"] = .string(avatar) }
            }
            if let tag = context.conversationTag {
                object["tag"] = .string(tag)
                object["renotify"] = .bool(true)
            }
            object["timestamp"] = .number((context.event.event.receivedAt.timeIntervalSince1970 * 1000).rounded())
            if let badge = context.shownBadge { object["appBadge"] = .number(Double(badge)) }
            if context.event.isCall { object["requireInteraction"] = .bool(true) }
            object["data"] = .object(data.mapValues(JSONValue.string))
        }
        var payload = JSONValue.object(object).jsonBytes()
        // Too large for one record: the message object goes first (the app can fetch it by id),
        // then the body is shortened.
        if payload.count > WebPushMessage.maxPlaintext, data["message"] != nil {
            data["message"] = nil
            object["data"] = .object(data.mapValues(JSONValue.string))
            payload = JSONValue.object(object).jsonBytes()
        }
        // Still too large: the body and every long data value are cut to the same length, shorter
        // each round, until the whole fits.
        let body = object["body"]?.stringValue ?? ""
        var limit = max(body.count, data.values.map(\.count).max() ?? 0)
        while payload.count > WebPushMessage.maxPlaintext && limit > 0 {
            limit = min(limit - 1, limit * WebPushMessage.maxPlaintext / payload.count * 9 / 10)
            if object["body"] != nil { object["body"] = .string(clipped(body, to: limit)) }
            let cut = data.mapValues { clipped($0, to: limit) }
            object["data"] = .object(cut.mapValues(JSONValue.string))
            payload = JSONValue.object(object).jsonBytes()
        }
        return WebPushMessage(
            endpoint: endpoint,
            keys: context.style.sealedTo,
            payload: payload,
            ttlSeconds: context.ttlSeconds ?? WebPushMessage.defaultTTL,
            urgency: urgency(context, route: route),
            topic: route == .alert && !context.event.isCall ? WebPushMessage.topic(conversationId: context.event.conversationId) : nil
        )
    }

    /// `text` cut to `count` characters, the last of them an ellipsis.
    static func clipped(_ text: String, to count: Int) -> String {
        guard text.count > count else { return text }
        return count <= 1 ? "…" : String(text.prefix(count - 1)) + "…"
    }

    /// `Urgency` from the importance: calls and mentions `high` (time-sensitive), passive ones
    /// `low`, other alerts and background updates `normal`.
    static func urgency(_ context: PushContext, route: PushRoute) -> WebPushMessage.Urgency {
        guard route != .background else { return .normal }
        switch context.importance.level {
        case .timeSensitive, .critical: return .high
        case .passive: return .low
        case .active: return .normal
        }
    }

    /// A notice (clear, retract) or session end to a UnifiedPush endpoint: the fields as `data`,
    /// normal urgency. Browsers never get one (they must show every push).
    static func webPushNotice(_ fields: [String: String], endpoint: String, keys: PushEncryptionKeys?, ttlSeconds: Int?) -> WebPushMessage {
        WebPushMessage(
            endpoint: endpoint,
            keys: keys,
            payload: JSONValue.object(["data": .object(fields.mapValues(JSONValue.string))]).jsonBytes(),
            ttlSeconds: ttlSeconds ?? WebPushMessage.defaultTTL,
            urgency: .normal
        )
    }
}
