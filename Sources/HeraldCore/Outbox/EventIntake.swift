import Foundation
import HeraldModels

/// `POST /v1/events`: one event or `{"events":[…]}` (up to 500), validated whole before any is
/// stored, then stored in one transaction; the answer comes once they are durable.
public struct EventIntake: Sendable {
    let events: any EventRepository
    let observer: any EngineObserver
    let clock: any WallClock

    public static let maxBatch = 500

    public init(events: any EventRepository, observer: any EngineObserver = SilentObserver(), clock: any WallClock = SystemWallClock()) {
        self.events = events
        self.observer = observer
        self.clock = clock
    }

    /// Parses and stores; returns the event ids in order (an already-used client id gives the
    /// first event's id, and nothing new is stored for it).
    public func accept(appId: String, body: JSONValue) async throws -> [String] {
        // Milliseconds, as stored: the body parsed again from storage is the one parsed now.
        let now = Date(millisecondsSince1970: clock.now().millisecondsSince1970)
        var items: [(JSONValue, String)] = []
        if case .object(let object) = body, let list = object["events"] {
            guard case .array(let array) = list else { throw HeraldError.invalidField("events", "must be an array of events") }
            guard !array.isEmpty, array.count <= Self.maxBatch else { throw HeraldError.invalidField("events", "must hold 1 to \(Self.maxBatch) events") }
            items = array.enumerated().map { ($0.element, "events[\($0.offset)]") }
        } else {
            items = [(body, "")]
        }
        var parsed: [ChatEvent] = []
        var clientIds = Set<String>()
        for (value, path) in items {
            let event = try EventParser.parse(value, path: path, now: now)
            if let clientId = event.clientId, !clientIds.insert(clientId).inserted {
                throw HeraldError.invalidField(path.isEmpty ? "id" : path + ".id", "is used twice in this post")
            }
            parsed.append(ChatEvent(id: Identifier.timeOrdered("evt_"), appId: appId, clientId: event.clientId, receivedAt: now, body: event.body, posted: value))
        }
        let ids = try await events.insertEvents(parsed)
        observer.accepted(events: parsed.count)
        return ids
    }
}
