import Foundation
import HeraldModels

/// The pushes of a Matrix notify, exactly as Sygnal 0.17's pushkins build them, so that apps
/// written against Sygnal (Element X iOS and Android) read them unchanged. Pure; nil when
/// Sygnal would send nothing.
public enum MatrixPayloads {
    /// Sygnal's `MAX_JSON_BODY_SIZE` for APNs.
    static let apnsMaxBody = 4_096
    /// Sygnal's `MAX_FIELD_LENGTH`: names cut before they go in an alert's arguments.
    static let maxFieldLength = 1_024
    /// Sygnal's `MAX_BYTES_PER_FIELD` for FCM data values (UTF-8 bytes).
    static let fcmMaxField = 1_024
    /// Sygnal's webpush `MAX_BODY_LENGTH` and `MAX_CIPHERTEXT_LENGTH` (characters).
    static let webPushMaxBody = 1_000
    static let webPushMaxCiphertext = 2_000
    /// Sygnal's webpush `ttl` default.
    static let webPushTTL = 900

    public static func push(_ matrix: MatrixPush, now: Date) -> OutgoingPush? {
        switch matrix.platform.tokenKind.providerKind {
        case .apns: apns(matrix).map(OutgoingPush.apns)
        case .fcm: fcm(matrix).map(OutgoingPush.fcm)
        case .webpush: webPush(matrix).map(OutgoingPush.webPush)
        case .hms, .custom: nil
        }
    }

    // MARK: APNs

    /// Sygnal's two shapes. A notify with an event and no type (a pusher with `format:
    /// event_id_only`) sends the pusher's `default_payload` with `room_id`, `event_id`,
    /// `unread_count` and `missed_calls` beside it and no `aps` of Herald's. Otherwise the full
    /// alert: `loc-key`/`loc-args` for the kind of event, the badge (unread plus missed calls),
    /// `room_id` and `event_id` beside `aps`; a badge-only notify is `{"aps":{"badge":N}}`;
    /// nothing when there is neither an alert nor a badge. Priority 5 for `prio: low`. The
    /// pushkey is base64 of the token, sent as hex unless the binding says otherwise.
    public static func apns(_ matrix: MatrixPush) -> APNsPush? {
        let n = matrix.notification
        let device = matrix.device
        let defaultPayload = device.data["default_payload"]?.objectValue ?? [:]
        var payload: JSONObject
        if n.eventId != nil && n.type == nil {
            payload = defaultPayload
            if let roomId = n.roomId, !roomId.isEmpty { payload["room_id"] = .string(roomId) }
            if let eventId = n.eventId, !eventId.isEmpty { payload["event_id"] = .string(eventId) }
            if let unread = n.unread { payload["unread_count"] = .number(Double(unread)) }
            if let missed = n.missedCalls { payload["missed_calls"] = .number(Double(missed)) }
        } else {
            guard let full = fullAPNs(n, device) else { return nil }
            payload = full
        }
        guard let shaved = truncate(payload, maxBytes: apnsMaxBody) else { return nil }
        let kind: APNsPushKind = matrix.binding.apnsPushType.flatMap(APNsPushKind.init(rawValue:)) ?? .alert
        let priority: APNsPriority = n.prio == "low" ? .consideringDevicePower : .immediately
        var push = APNsPush(deviceToken: deviceToken(matrix), headers: APNsHeaders(kind, priority: priority), aps: .empty, fields: shaved)
        push.rawFields = true
        return push
    }

    /// The device token: the pushkey (base64) as lower-case hex, or as it is.
    static func deviceToken(_ matrix: MatrixPush) -> String {
        guard matrix.binding.convertDeviceTokenToHex, let data = Data(base64Encoded: padded(matrix.pushkey)) else { return matrix.pushkey }
        return data.map { String(format: "%02x", $0) }.joined()
    }

    static func padded(_ base64: String) -> String {
        base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
    }

    static func fullAPNs(_ n: MatrixNotification, _ device: MatrixDevice) -> JSONObject? {
        let sender = n.sender ?? ""
        let from: String
        if sender.isEmpty && (n.senderDisplayName ?? "").isEmpty {
            from = " "
        } else {
            from = String((n.senderDisplayName ?? sender).prefix(maxFieldLength))
        }
        let roomName = n.roomName?.isEmpty == false ? n.roomName : nil
        let roomAlias = n.roomAlias?.isEmpty == false ? n.roomAlias : nil
        var locKey: String?
        var locArgs: [String]?
        switch n.type {
        case "m.room.message", "m.room.encrypted":
            let room = (roomName ?? roomAlias).map { String($0.prefix(maxFieldLength)) }
            var contentDisplay: String?
            var actionDisplay: String?
            var isImage = false
            if let content = n.content, let msgtype = content["msgtype"]?.stringValue, let body = content["body"]?.stringValue {
                if msgtype == "m.emote" { actionDisplay = body } else { contentDisplay = body }
                isImage = msgtype == "m.image"
            }
            if let room {
                if isImage {
                    (locKey, locArgs) = ("IMAGE_FROM_USER_IN_ROOM", [from, contentDisplay ?? "", room])
                } else if let contentDisplay {
                    (locKey, locArgs) = ("MSG_FROM_USER_IN_ROOM_WITH_CONTENT", [from, room, contentDisplay])
                } else if let actionDisplay {
                    (locKey, locArgs) = ("ACTION_FROM_USER_IN_ROOM", [room, from, actionDisplay])
                } else {
                    (locKey, locArgs) = ("MSG_FROM_USER_IN_ROOM", [from, room])
                }
            } else if isImage {
                (locKey, locArgs) = ("IMAGE_FROM_USER", [from, contentDisplay ?? ""])
            } else if let contentDisplay {
                (locKey, locArgs) = ("MSG_FROM_USER_WITH_CONTENT", [from, contentDisplay])
            } else if let actionDisplay {
                (locKey, locArgs) = ("ACTION_FROM_USER", [from, actionDisplay])
            } else {
                (locKey, locArgs) = ("MSG_FROM_USER", [from])
            }
        case "m.call.invite":
            // Works for homeservers whose calls are WebRTC offers.
            let sdp = n.content?["offer"]?.objectValue?["sdp"]?.stringValue ?? ""
            (locKey, locArgs) = (sdp.contains("m=video") ? "VIDEO_CALL_FROM_USER" : "VOICE_CALL_FROM_USER", [from])
        case "m.room.member":
            if n.userIsTarget == true && n.membership == "invite" {
                if let room = roomName ?? roomAlias {
                    (locKey, locArgs) = ("USER_INVITE_TO_NAMED_ROOM", [from, String(room.prefix(maxFieldLength))])
                } else {
                    (locKey, locArgs) = ("USER_INVITE_TO_CHAT", [from])
                }
            }
        case nil, "":
            break
        default:
            // A kind Sygnal does not know, important enough to be pushed.
            (locKey, locArgs) = ("MSG_FROM_USER", [from])
        }
        var badge: Int?
        if let unread = n.unread { badge = unread }
        if let missed = n.missedCalls { badge = (badge ?? 0) + missed }
        guard locKey != nil || badge != nil else { return nil }
        // The pusher's default payload is the base of an event's alert, not of a badge-only notify.
        var payload: JSONObject = n.type?.isEmpty == false ? device.data["default_payload"]?.objectValue ?? [:] : [:]
        var aps = payload["aps"]?.objectValue ?? [:]
        if let locKey {
            var alert = aps["alert"]?.objectValue ?? [:]
            alert["loc-key"] = .string(locKey)
            if let locArgs { alert["loc-args"] = .array(locArgs.map(JSONValue.string)) }
            aps["alert"] = .object(alert)
        }
        if let badge { aps["badge"] = .number(Double(badge)) }
        payload["aps"] = .object(aps)
        if locKey != nil {
            if let roomId = n.roomId, !roomId.isEmpty { payload["room_id"] = .string(roomId) }
            if let eventId = n.eventId, !eventId.isEmpty { payload["event_id"] = .string(eventId) }
        }
        return payload
    }

    /// Sygnal's `apnstruncate`: the size is that of Python's `json.dumps(payload,
    /// ensure_ascii=False)` (with a space after each `,` and `:`); while it is over `maxBytes`, the
    /// longest (in UTF-8) of the alert's strings — the alert itself, its `body`, each of its
    /// `loc-args` — loses its last character. Nil when nothing is left to cut (Sygnal's
    /// `BodyTooLongException`).
    static func truncate(_ payload: JSONObject, maxBytes: Int) -> JSONObject? {
        var size = pythonSize(.object(payload))
        guard size > maxBytes else { return payload }
        guard case .object(var aps)? = payload["aps"] else { return nil }
        var payload = payload
        while size > maxBytes {
            // The choppable strings, in Sygnal's order: alert (a string), body, then loc-args.
            var strings: [(path: Int, text: String)] = []
            var alert = aps["alert"]
            var args: [String] = []
            if case .string(let text)? = alert { strings.append((-2, text)) }
            if case .object(let object)? = alert {
                if case .string(let body)? = object["body"] { strings.append((-1, body)) }
                if case .array(let values)? = object["loc-args"] { args = values.compactMap(\.stringValue) }
                strings += args.enumerated().map { ($0.offset, $0.element) }
            }
            // The first of the longest, as Python's max() picks it.
            var longest: (path: Int, text: String)?
            var runnerUp = 0
            for string in strings where !string.text.isEmpty {
                let bytes = string.text.utf8.count
                if let current = longest, bytes <= current.text.utf8.count {
                    runnerUp = max(runnerUp, bytes)
                    continue
                }
                runnerUp = max(runnerUp, longest?.text.utf8.count ?? 0)
                longest = string
            }
            guard let longest else { return nil }
            // One character a round, as Sygnal; when far over, as many rounds at once as cannot
            // make another string the longest (a character is at most 4 bytes).
            let lead = longest.text.utf8.count - runnerUp
            let rounds = max(1, min((size - maxBytes) / 4, (lead - 1) / 4))
            let chopped = String(longest.text.dropLast(rounds))
            switch longest.path {
            case -2:
                alert = .string(chopped)
            case -1:
                if case .object(var object)? = alert {
                    object["body"] = .string(chopped)
                    alert = .object(object)
                }
            default:
                if case .object(var object)? = alert {
                    args[longest.path] = chopped
                    object["loc-args"] = .array(args.map(JSONValue.string))
                    alert = .object(object)
                }
            }
            aps["alert"] = alert
            payload["aps"] = .object(aps)
            size = pythonSize(.object(payload))
        }
        return payload
    }

    /// The UTF-8 size of Python's `json.dumps(value, ensure_ascii=False)`: Herald's compact JSON
    /// plus one space after each separator.
    public static func pythonSize(_ value: JSONValue) -> Int {
        value.jsonBytes().count + separators(value)
    }

    static func separators(_ value: JSONValue) -> Int {
        switch value {
        case .object(let object): return object.count + max(0, object.count - 1) + object.values.reduce(0) { $0 + separators($1) }
        case .array(let array): return max(0, array.count - 1) + array.reduce(0) { $0 + separators($1) }
        default: return 0
        }
    }

    // MARK: FCM

    /// Sygnal's FCM v1 data message: the pusher's `default_payload` flattened into the data, the
    /// notification's string fields (over 1,024 UTF-8 bytes cut to 1,021 and "…"), each string
    /// field of `content` as `content_<key>`, `prio` `high` or `normal`, `unread` and
    /// `missed_calls` as strings when not zero; Android priority from `prio`; the binding's
    /// `fcmOptions` as the message's base. A notify with no room, no event and no counts (a
    /// badge-only notify after everything was read) sends nothing, as Sygnal 0.17.
    public static func fcm(_ matrix: MatrixPush) -> FCMPush? {
        let n = matrix.notification
        var data: [String: String] = [:]
        // v1 data values are strings: a default payload's other values go as their JSON text.
        for (key, value) in matrix.device.data["default_payload"]?.objectValue ?? [:] {
            data[key] = value.stringValue ?? (try? value.jsonText()) ?? ""
        }
        let fields: [(String, String?)] = [
            ("event_id", n.eventId), ("type", n.type), ("sender", n.sender), ("room_name", n.roomName), ("room_alias", n.roomAlias),
            ("membership", n.membership), ("sender_display_name", n.senderDisplayName), ("room_id", n.roomId),
        ]
        for (key, value) in fields {
            guard let value else { continue }
            data[key] = clippedUTF8(value)
        }
        for (key, value) in n.content ?? [:] {
            guard case .string(let text) = value else { continue }
            data["content_" + key] = clippedUTF8(text)
        }
        data["prio"] = n.prio == "low" ? "normal" : "high"
        var counts: [String: String] = [:]
        if let unread = n.unread, unread != 0 { counts["unread"] = String(unread) }
        if let missed = n.missedCalls, missed != 0 { counts["missed_calls"] = String(missed) }
        if (data["room_id"] ?? "").isEmpty && (data["event_id"] ?? "").isEmpty && counts.isEmpty { return nil }
        data.merge(counts) { $1 }
        var push = FCMPush(token: matrix.pushkey, data: data)
        push.android = FCMPush.Android(highPriority: n.prio != "low")
        push.options = matrix.binding.fcmOptions
        return push
    }

    /// Sygnal's `truncate_str(text, 1024)`.
    static func clippedUTF8(_ text: String) -> String {
        guard text.utf8.count > fcmMaxField else { return text }
        var kept = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            guard bytes <= fcmMaxField - 3 else { break }
            kept.append(character)
        }
        return kept + "…"
    }

    // MARK: Web Push

    /// Sygnal's webpush payload: the `default_payload`, the notification's non-empty fields
    /// (`user_is_target` only when true), `unread` and `missed_calls` (0 too), and `content`
    /// without `formatted_body` (a `body` over 1,000 characters cut with "…", a `ciphertext` over
    /// 2,000 left out); `Urgency` `low` for `prio: low`, else `normal`; `TTL` 900 s; with
    /// `only_last_per_room`, a `Topic` per room (BLAKE2s of the room id, as Sygnal). The pushkey
    /// is the subscription's `p256dh`, `data.endpoint` and `data.auth` the rest. A pushkey that
    /// is a URL is a UnifiedPush endpoint: it gets the notify itself (UnifiedPush's Matrix
    /// gateway convention). With `events_only`, badge-only notifies send nothing.
    public static func webPush(_ matrix: MatrixPush) -> WebPushMessage? {
        let n = matrix.notification
        let device = matrix.device
        if matrix.platform == .unifiedPush {
            let body = JSONValue.object(["notification": .object(unifiedPushNotification(n, device))]).jsonBytes()
            return WebPushMessage(
                endpoint: device.pushkey,
                keys: nil,
                payload: body,
                ttlSeconds: webPushTTL,
                urgency: n.prio == "low" ? .low : .normal
            )
        }
        if device.data["events_only"] == .bool(true) && n.eventId == nil { return nil }
        guard let subscription = webPushSubscription(device) else { return nil }
        var payload: JSONObject = device.data["default_payload"]?.objectValue ?? [:]
        let fields: [(String, String?)] = [
            ("room_id", n.roomId), ("room_name", n.roomName), ("room_alias", n.roomAlias), ("membership", n.membership),
            ("event_id", n.eventId), ("sender", n.sender), ("sender_display_name", n.senderDisplayName),
        ]
        for (key, value) in fields { if let value, !value.isEmpty { payload[key] = .string(value) } }
        if n.userIsTarget == true { payload["user_is_target"] = .bool(true) }
        if let type = n.type, !type.isEmpty { payload["type"] = .string(type) }
        if let unread = n.unread { payload["unread"] = .number(Double(unread)) }
        if let missed = n.missedCalls { payload["missed_calls"] = .number(Double(missed)) }
        if var content = n.content, !content.isEmpty {
            content["formatted_body"] = nil
            if case .string(let body)? = content["body"], body.count > webPushMaxBody {
                content["body"] = .string(String(body.prefix(webPushMaxBody - 1)) + "…")
            }
            if case .string(let ciphertext)? = content["ciphertext"], ciphertext.count > webPushMaxCiphertext { content["ciphertext"] = nil }
            payload["content"] = .object(content)
        }
        var topic: String?
        if device.data["only_last_per_room"] == .bool(true), let roomId = n.roomId, !roomId.isEmpty {
            topic = Data(BLAKE2s.hash(Array(roomId.utf8), digestLength: 22)).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        return WebPushMessage(
            endpoint: subscription.endpoint,
            keys: subscription.keys,
            payload: JSONValue.object(payload).jsonBytes(),
            ttlSeconds: webPushTTL,
            urgency: n.prio == "low" ? .low : .normal,
            topic: topic
        )
    }

    /// A Web Push pusher's subscription: `data.endpoint`, and the keys (the pushkey is `p256dh`,
    /// `data.auth` the secret); nil when the pusher lacks them (Sygnal rejects the pushkey).
    public static func webPushSubscription(_ device: MatrixDevice) -> (endpoint: String, keys: PushEncryptionKeys)? {
        guard let endpoint = device.data["endpoint"]?.stringValue, let auth = device.data["auth"]?.stringValue,
            let keys = try? PushEncryptionKeys(p256dh: device.pushkey, auth: auth)
        else { return nil }
        return (endpoint, keys)
    }

    /// The notify as a UnifiedPush endpoint receives it from a Matrix gateway: the notification
    /// with this device alone.
    static func unifiedPushNotification(_ n: MatrixNotification, _ device: MatrixDevice) -> JSONObject {
        var object = n.wireFields
        if let userIsTarget = n.userIsTarget { object["user_is_target"] = .bool(userIsTarget) }
        var entry: JSONObject = ["app_id": .string(device.appId), "pushkey": .string(device.pushkey), "data": .object(device.data)]
        if let ts = device.pushkeyTs { entry["pushkey_ts"] = .number(Double(ts)) }
        if !device.tweaks.isEmpty { entry["tweaks"] = .object(device.tweaks) }
        object["devices"] = .array([.object(entry)])
        return object
    }
}
