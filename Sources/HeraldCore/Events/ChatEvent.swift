import Foundation
import HeraldModels

/// What a chat backend tells Herald happened (`POST /v1/events`), once accepted: stored as is,
/// then fanned out to its recipients.
public struct ChatEvent: Sendable, Equatable {
    public var id: String
    public var appId: String
    /// The integrator's own id, which makes a post idempotent.
    public var clientId: String?
    public var receivedAt: Date
    public var body: EventBody
    /// The event as posted, which is what storage keeps: parsing it again with the time it was
    /// received gives the same body, for a fraction of the cost of encoding the body. Nil for
    /// Herald's own events (a session's end), which are stored encoded.
    public var posted: JSONValue?
    /// The W3C `traceparent` of the request that posted it, when it was traced.
    public var traceParent: String?

    public init(id: String, appId: String, clientId: String?, receivedAt: Date, body: EventBody, posted: JSONValue? = nil, traceParent: String? = nil)
    {
        self.id = id
        self.appId = appId
        self.clientId = clientId
        self.receivedAt = receivedAt
        self.body = body
        self.posted = posted
        self.traceParent = traceParent
    }

    /// An event read back from storage: `text` is either the event as posted or the body encoded.
    public static func stored(
        id: String,
        appId: String,
        clientId: String?,
        receivedAt: Date,
        text: String,
        traceParent: String? = nil,
        decode: (String) throws -> EventBody
    ) throws -> ChatEvent {
        let value = try JSONValue(jsonText: text)
        if case .object(let object) = value, case .string = object["type"] {
            let body = try EventParser.parse(value, now: receivedAt).body
            return ChatEvent(id: id, appId: appId, clientId: clientId, receivedAt: receivedAt, body: body, posted: value, traceParent: traceParent)
        }
        return ChatEvent(id: id, appId: appId, clientId: clientId, receivedAt: receivedAt, body: try decode(text), traceParent: traceParent)
    }

    public var kind: EventKind { body.kind }

    /// The message a message event is about (edits and deletes find its alerts by it).
    public var messageId: String? {
        if case .message(let message) = body { return message.idText }
        return nil
    }

    /// The event as the API shows it (`GET /v1/events/{eventId}`): what the backend posted, as it
    /// posted it; Herald's own session events, which nobody posted, as
    /// `{"type":"session","uid","sessionId","reason","devices":[{"providerId","platform"}]}`
    /// (the devices' tokens are not repeated there: the delivery log names each target); a Matrix
    /// notify's device as `{"type":"matrix","notification","device":{"app_id","pushkey"},"matrixAppId","providerId"}`.
    public var publicJSON: JSONValue {
        if let posted { return posted }
        switch body {
        case .session(let session):
            return .object([
                "type": .string(EventKind.session.rawValue), "uid": .string(session.uid), "sessionId": .string(session.sessionId),
                "reason": .string(session.reason),
                "devices": .array(
                    session.devices.map { .object(["providerId": .string($0.providerId), "platform": .string($0.platform.rawValue)]) }
                ),
            ])
        case .matrix(let push):
            // The notify as the homeserver sent it, for this device; not the pusher's data (a
            // Web Push pusher's auth secret is in it).
            return .object([
                "type": .string(EventKind.matrix.rawValue), "notification": .object(push.notification.wireFields),
                "device": .object(["app_id": .string(push.device.appId), "pushkey": .string(push.pushkey)]),
                "matrixAppId": .string(push.binding.pattern), "providerId": .string(push.binding.providerId),
            ])
        default:
            // Every other kind is stored as posted; this is only reached by events made in code.
            return .object(["type": .string(kind.rawValue)])
        }
    }
}

extension JSONValue {
    /// A scalar as text: numbers without a fraction print as integers.
    public var text: String {
        switch self {
        case .string(let value): value
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .bool(let value): String(value)
        case .null: ""
        case .array, .object: (try? jsonText()) ?? ""
        }
    }
}
