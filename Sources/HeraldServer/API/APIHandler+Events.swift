import Foundation
import HeraldAPI
import HeraldCore
import HeraldModels
import HeraldStorage

extension APIHandler {
    /// The generated form of `POST /v1/events`, which the generated protocol requires. It is never
    /// routed: ``HotRoutes`` serves the operation without the generated types' decoding.
    func postEvents(_ input: Operations.PostEvents.Input) async throws -> Operations.PostEvents.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let json: JSONValue =
            switch body {
            case .EventBatch(let batch): .object(["events": .array(try batch.events.map { .object(try JSONBridge.object($0)) })])
            case .EventInput(let event): .object(try JSONBridge.object(event))
            }
        let ids = try await services.acceptEvents(appId: appId, body: json)
        return .accepted(.init(body: .json(.init(eventIds: ids))))
    }

    func listEvents(_ input: Operations.ListEvents.Input) async throws -> Operations.ListEvents.Output {
        let appId = try await adminAppId()
        let limit = min(max(input.query.limit ?? 50, 1), 200)
        let events = try await services.store.events(appId: appId, before: input.query.before, limit: limit)
        return .ok(.init(body: .json(.init(data: try events.map(Wire.event)))))
    }

    func getEvent(_ input: Operations.GetEvent.Input) async throws -> Operations.GetEvent.Output {
        let appId = try await adminAppId()
        guard let stored = try await services.store.storedEvent(appId: appId, id: input.path.eventId) else {
            throw HeraldError.notFound("event", input.path.eventId)
        }
        let limit = min(max(input.query.limit ?? 200, 1), 1_000)
        let page = try await services.store.deliveries(
            appId: appId,
            filter: DeliveryFilter(eventId: stored.event.id),
            after: input.query.cursor,
            limit: limit
        )
        var counts = Dictionary(
            uniqueKeysWithValues: try await services.store.deliveryCounts(appId: appId, eventId: stored.event.id).map { ($0.key.rawValue, $0.value) }
        )
        let receipts = try await services.store.receiptCounts(appId: appId, eventId: stored.event.id)
        // What devices reported, when they reported anything.
        if receipts.received > 0 { counts["received"] = receipts.received }
        if receipts.opened > 0 { counts["opened"] = receipts.opened }
        return .ok(
            .init(
                body: .json(
                    .init(
                        event: try Wire.event(stored),
                        counts: .init(additionalProperties: counts),
                        deliveries: page.map(Wire.delivery),
                        nextCursor: page.count == limit ? page.last.map(SQLStoreCursor.after) : nil
                    )
                )
            )
        )
    }

    func listDeliveries(_ input: Operations.ListDeliveries.Input) async throws -> Operations.ListDeliveries.Output {
        let appId = try await adminAppId()
        let limit = min(max(input.query.limit ?? 100, 1), 1_000)
        let filter = DeliveryFilter(
            uid: input.query.uid,
            eventId: input.query.eventId,
            status: input.query.status.flatMap { DeliveryStatus(rawValue: $0.rawValue) },
            since: input.query.since
        )
        let page = try await services.store.deliveries(appId: appId, filter: filter, after: input.query.cursor, limit: limit)
        return .ok(
            .init(body: .json(.init(data: page.map(Wire.delivery), nextCursor: page.count == limit ? page.last.map(SQLStoreCursor.after) : nil)))
        )
    }
}

/// Delivery-log cursors, as the store makes them.
enum SQLStoreCursor {
    static func after(_ delivery: Delivery) -> String { SQLStore.deliveryCursor(after: delivery) }
}
