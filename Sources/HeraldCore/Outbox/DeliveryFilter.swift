import Foundation

/// The delivery log's filters (`GET /v1/deliveries`).
public struct DeliveryFilter: Sendable {
    public var uid: String?
    public var eventId: String?
    public var status: DeliveryStatus?
    public var since: Date?

    public init(uid: String? = nil, eventId: String? = nil, status: DeliveryStatus? = nil, since: Date? = nil) {
        self.uid = uid
        self.eventId = eventId
        self.status = status
        self.since = since
    }
}
