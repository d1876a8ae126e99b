import Foundation
import HeraldCore
import HeraldModels
import NIOCore

/// One notification for one device as it goes on the wire: the payload already encoded, and the
/// headers' values. Core's ``APNsPush`` becomes one through ``init(_:)``; tools and tests make
/// them from raw payloads.
public struct APNsNotification: Sendable {
    public var deviceToken: String
    public var pushType: APNsPushType
    /// The JSON payload (a dictionary with `aps`), already encoded.
    public var payload: ByteBuffer
    /// `apns-priority`: nil sends the type's default (5 for background pushes, else 10). Any
    /// other value than 1, 5 or 10 is refused before sending, as Apple would.
    public var priority: Int?
    public var expiration: APNsExpiration
    public var collapseId: String?
    public var apnsId: UUID?
    /// The payload was encoded here from a JSON object, so the local check need not parse it
    /// again to know it is one (a payload given as bytes is parsed).
    let payloadIsEncodedObject: Bool

    public init(
        deviceToken: String,
        pushType: APNsPushType = .alert,
        payload: ByteBuffer,
        priority: Int? = nil,
        expiration: APNsExpiration = .none,
        collapseId: String? = nil,
        apnsId: UUID? = nil
    ) {
        self.deviceToken = deviceToken
        self.pushType = pushType
        self.payload = payload
        self.priority = priority
        self.expiration = expiration
        self.collapseId = collapseId
        self.apnsId = apnsId
        self.payloadIsEncodedObject = false
    }

    /// Core's push, encoded.
    public init(_ push: APNsPush) {
        self.deviceToken = push.deviceToken
        self.pushType = APNsPushType(push.headers.kind)
        self.payload = ByteBuffer(bytes: push.payloadBytes)
        self.priority = push.headers.priority.rawValue
        self.expiration = push.headers.expiration
        self.collapseId = push.headers.collapseId
        self.apnsId = nil
        self.payloadIsEncodedObject = true
    }
}
