import Foundation
import HeraldModels

/// One APNs notification to one device: its headers (type, priority, expiration, collapse id),
/// its `aps`, and the keys beside `aps` (the notification details, Sendbird's object, a
/// campaign's `cometchat`).
public struct APNsPush: Sendable, Equatable {
    public var deviceToken: String
    public var headers: APNsHeaders
    public var aps: APS
    /// What goes beside `aps`.
    public var content: Fields

    /// The keys beside `aps`: a dictionary, or a chat event's notification details, which the
    /// payload's text is written from member by member (no dictionary is made for a push).
    public enum Fields: Sendable {
        case object(JSONObject)
        case details(NotificationDetails)

        public var object: JSONObject {
            switch self {
            case .object(let object): object
            case .details(let details): details.object
            }
        }

        /// The fields have an `aps` of their own (a Matrix pusher's `default_payload`).
        var bringsAPS: Bool {
            if case .object(let object) = self { object["aps"] != nil } else { false }
        }
    }

    public init(deviceToken: String, headers: APNsHeaders, aps: APS, fields: JSONObject = [:]) {
        self.init(deviceToken: deviceToken, headers: headers, aps: aps, content: .object(fields))
    }

    public init(deviceToken: String, headers: APNsHeaders, aps: APS, content: Fields) {
        self.deviceToken = deviceToken
        self.headers = headers
        self.aps = aps
        self.content = content
    }

    /// The keys beside `aps`, as a dictionary.
    public var fields: JSONObject {
        get { content.object }
        set { content = .object(newValue) }
    }

    /// The whole payload: the fields with `aps`. Fields that bring their own `aps` (a Matrix
    /// pusher's `default_payload`) keep it when ``aps`` is empty; with neither there is no `aps`
    /// (Sygnal's `event_id_only`).
    public var payload: JSONObject {
        var payload = fields
        if aps != .empty {
            payload["aps"] = .object(aps.json)
        } else if payload["aps"] == nil && !rawFields {
            payload["aps"] = .object([:])
        }
        return payload
    }

    /// What a payload's text is given room for at once: CometChat's payload of a chat message
    /// is ~2,000 bytes, which from 512 grew (and was copied) twice on every push; APNs takes up
    /// to 4,096 (5,120 for VoIP).
    static let payloadCapacity = 4_096

    /// ``payload``'s text (compact JSON), written as it goes: `aps`, then the fields.
    public var payloadBytes: [UInt8] {
        var writer = JSONObjectWriter(capacity: Self.payloadCapacity)
        let hasAPS = aps != .empty
        if hasAPS {
            writer.member("aps", object: { aps.write(into: &$0) })
        } else if !content.bringsAPS && !rawFields {
            writer.member("aps", .object([:]))
        }
        switch content {
        case .details(let details): details.write(into: &writer)
        case .object(let fields): for (key, value) in fields where !(hasAPS && key == "aps") { writer.member(key, value) }
        }
        return writer.finish()
    }

    /// The fields are the whole payload as given (Matrix): no `aps` is added.
    public var rawFields = false

    public static func == (lhs: APNsPush, rhs: APNsPush) -> Bool {
        lhs.deviceToken == rhs.deviceToken && lhs.headers == rhs.headers && lhs.aps == rhs.aps && lhs.rawFields == rhs.rawFields
            && lhs.fields == rhs.fields
    }
}
