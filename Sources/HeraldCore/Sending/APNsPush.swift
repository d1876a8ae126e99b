import Foundation
import HeraldModels

/// One APNs notification to one device: its headers (type, priority, expiration, collapse id),
/// its `aps`, and the keys beside `aps` (the notification details, Sendbird's object, a
/// campaign's `cometchat`).
public struct APNsPush: Sendable, Equatable {
    public var deviceToken: String
    public var headers: APNsHeaders
    public var aps: APS
    public var fields: JSONObject

    public init(deviceToken: String, headers: APNsHeaders, aps: APS, fields: JSONObject = [:]) {
        self.deviceToken = deviceToken
        self.headers = headers
        self.aps = aps
        self.fields = fields
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

    /// ``payload``'s text (compact JSON), written as it goes: `aps`, then the fields.
    public var payloadBytes: [UInt8] {
        var writer = JSONObjectWriter(capacity: 512)
        let hasAPS = aps != .empty
        if hasAPS {
            writer.member("aps") { aps.write(into: &$0) }
        } else if fields["aps"] == nil && !rawFields {
            writer.member("aps", .object([:]))
        }
        for (key, value) in fields where !(hasAPS && key == "aps") { writer.member(key, value) }
        return writer.finish()
    }

    /// The fields are the whole payload as given (Matrix): no `aps` is added.
    public var rawFields = false
}
