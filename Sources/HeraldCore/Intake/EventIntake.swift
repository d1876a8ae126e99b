import Foundation
import HeraldModels

/// `POST /v1/events`: one event or `{"events":[…]}` (up to 500), validated whole before any is
/// stored, then stored in one transaction; the answer comes once they are durable.
public struct EventIntake: Sendable {
    let events: any EventRepository
    let observer: any EngineObserver
    let clock: any WallClock
    /// This process's fan-out, which takes accepted events straight from here when it has room.
    let handOff: EventHandOff?
    let claims: ClaimPolicy

    public static let maxBatch = 500

    public init(
        events: any EventRepository,
        observer: any EngineObserver = SilentObserver(),
        clock: any WallClock = SystemWallClock(),
        handOff: EventHandOff? = nil,
        claims: ClaimPolicy = .anonymous()
    ) {
        self.events = events
        self.observer = observer
        self.clock = clock
        self.handOff = handOff
        self.claims = claims
    }

    /// Parses and stores; returns the event ids in order (an already-used client id gives the
    /// first event's id, and nothing new is stored for it). `bytes`: the body's size as posted.
    public func accept(appId: String, body: JSONValue, bytes: Int? = nil) async throws -> [String] {
        // Milliseconds, as stored: the body parsed again from storage is the one parsed now.
        let now = clock.now().asStored
        var items: [(JSONValue, String)] = []
        if case .object(let object) = body, let list = object["events"] {
            guard case .array(let array) = list else { throw HeraldError.invalidField("events", "must be an array of events") }
            guard !array.isEmpty, array.count <= Self.maxBatch else {
                throw HeraldError.invalidField("events", "must hold 1 to \(Self.maxBatch) events")
            }
            items = array.enumerated().map { ($0.element, "events[\($0.offset)]") }
        } else {
            items = [(body, "")]
        }
        var parsed: [ChatEvent] = []
        var clientIds = Set<String>()
        let traceParent = EventTracing.currentTraceParent()
        for (value, path) in items {
            let event = try EventParser.parse(value, path: path, now: now)
            if let clientId = event.clientId, !clientIds.insert(clientId).inserted {
                throw HeraldError.invalidField(path.isEmpty ? "id" : path + ".id", "is used twice in this post")
            }
            parsed.append(
                ChatEvent(
                    id: Identifier.timeOrdered("evt_"),
                    appId: appId,
                    clientId: event.clientId,
                    receivedAt: now,
                    body: event.body,
                    posted: value,
                    traceParent: traceParent
                )
            )
        }
        return try await accept(parsed, paths: items.map(\.1), bytes: bytes)
    }

    /// What an event is taken to weigh in the hand-off when the size of its post is not known.
    static let assumedEventBytes = 1_024

    /// Stores events made in code (all of one app), hands them to this process's fan-out when
    /// it has room, and returns their ids — for an event whose client id was used before, the
    /// first event's id (the event is not stored again). `paths` name each event in an error;
    /// `bytes` is the size of their post, when they were posted.
    public func accept(_ parsed: [ChatEvent], paths: [String]? = nil, bytes: Int? = nil) async throws -> [String] {
        let paths = paths ?? parsed.map { _ in "" }
        let now = parsed.first?.receivedAt ?? clock.now()
        let bytes = bytes ?? parsed.count * Self.assumedEventBytes
        guard let handOff, handOff.reserve(parsed.count, bytes: bytes) else {
            let ids = try await insert(parsed, claim: nil, paths: paths)
            observer.accepted(events: parsed.count)
            return ids
        }
        let ids: [String]
        do {
            ids = try await insert(parsed, claim: claims.claim(at: now), paths: paths)
        } catch {
            handOff.cancel(parsed.count, bytes: bytes)
            throw error
        }
        // An event whose client id was used before is not stored (its first event's id stands in).
        var stored: [StoredEvent] = []
        stored.reserveCapacity(parsed.count)
        for index in parsed.indices where parsed[index].id == ids[index] {
            // What was posted is stored; the fan-out needs only the parsed body (~40 % less memory).
            var event = parsed[index]
            event.posted = nil
            stored.append(StoredEvent(event: event, status: .fanningOut))
        }
        handOff.hand(stored, reserved: parsed.count, bytes: bytes)
        observer.accepted(events: parsed.count)
        return ids
    }

    /// Stores the events; an id used before for another event is a 409 naming it.
    private func insert(_ parsed: [ChatEvent], claim: Claim?, paths: [String]) async throws -> [String] {
        do {
            return try await events.insertEvents(parsed, claim: claim)
        } catch let conflict as EventIdConflict {
            let path = parsed.firstIndex { $0.clientId == conflict.clientId }.map { paths[$0] } ?? ""
            throw HeraldError(
                .conflict,
                code: "event_id_conflict",
                "event id '\(conflict.clientId)' was already posted with a different body (stored as \(conflict.eventId)); "
                    + "post the same body to retry, or give this event a new id",
                details: ["field": path.isEmpty ? "id" : path + ".id", "id": conflict.clientId, "eventId": conflict.eventId]
            )
        }
    }
}
