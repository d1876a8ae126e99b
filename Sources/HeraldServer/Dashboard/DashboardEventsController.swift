import Foundation
import HeraldCore
import HeraldModels
import Hummingbird

/// Events: the delivery log, and one event's every recipient (and why it reached nobody, when
/// it did).
struct DashboardEventsController: Sendable {
    let dashboard: Dashboard
    /// Deliveries per page of the log.
    static let pageSize = 50
    /// An event's page shows at most this many recipients.
    static let recipientLimit = 5_000

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dashboard/events", use: list)
        router.get("/dashboard/events/:eventId", use: show)
    }

    private var services: HeraldServices { dashboard.services }

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            let status = request.uri.queryParameters.get("status").flatMap(DeliveryStatus.init(rawValue:))
            let deliveries = try await services.store.deliveries(
                appId: signedIn.app.id,
                filter: DeliveryFilter(status: status),
                after: request.uri.queryParameters.get("after"),
                limit: Self.pageSize
            )
            let next = deliveries.count == Self.pageSize ? deliveries.last?.id : nil
            let page = EventsPage(
                deliveries: try await DashboardDeliveryRows(store: services.store).rows(deliveries, appId: signedIn.app.id),
                statuses: DashboardOption.list([""] + DeliveryStatus.allCases.map(\.rawValue), selected: status?.rawValue ?? "", labels: ["": "any"]),
                next: next.map { "/dashboard/events?after=\($0)" + (status.map { "&status=\($0.rawValue)" } ?? "") }
            )
            return dashboard.view.page(page, title: "Events", section: "/dashboard/events", signedIn: signedIn)
        }
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            let eventId = try context.parameters.require("eventId")
            if FeedItem.isItemId(eventId) {
                // A feed item's push: its campaign (or its user) says what it was.
                guard let item = try await services.store.feedItems(appId: signedIn.app.id, ids: [eventId], content: true)[eventId] else {
                    throw HeraldError.notFound("feed item", eventId)
                }
                return DashboardView.redirect(DashboardDeliveryRows.feedItemLink(item))
            }
            return dashboard.view.page(
                try await event(eventId, appId: signedIn.app.id),
                title: "Event \(eventId)",
                section: "/dashboard/events",
                signedIn: signedIn
            )
        }
    }

    private func event(_ eventId: String, appId: String) async throws -> EventPage {
        guard let stored = try await services.store.storedEvent(appId: appId, id: eventId) else { throw HeraldError.notFound("event", eventId) }
        var all: [Delivery] = []
        var cursor: String?
        repeat {
            let page = try await services.store.deliveries(appId: appId, filter: DeliveryFilter(eventId: eventId), after: cursor, limit: 500)
            all += page
            cursor = page.count == 500 && all.count < Self.recipientLimit ? page.last?.id : nil
        } while cursor != nil
        var counts = Dictionary(grouping: all, by: \.status).map { EventPage.Count(status: $0.key.rawValue, count: $0.value.count) }
            .sorted { $0.status < $1.status }
        // What devices reported, beside what the providers said.
        let received = all.filter { $0.receivedAt != nil }.count
        let opened = all.filter { $0.openedAt != nil }.count
        if received > 0 { counts.append(EventPage.Count(status: "received", count: received)) }
        if opened > 0 { counts.append(EventPage.Count(status: "opened", count: opened)) }
        return EventPage(
            type: stored.event.kind.rawValue,
            status: stored.status.rawValue,
            recipients: stored.recipients,
            received: DashboardFormat.date(stored.event.receivedAt),
            finished: DashboardFormat.date(stored.finishedAt),
            counts: counts,
            deliveries: try await DashboardDeliveryRows(store: services.store).rows(all, appId: appId),
            truncated: all.count >= Self.recipientLimit,
            body: try? stored.event.publicJSON.jsonText(),
            reason: stored.reason.map(Self.nobodyText)
        )
    }

    static func nobodyText(_ reason: NobodyReason) -> String {
        switch reason {
        case .unknownUser: "Reached nobody: the receiver is not a user Herald knows (unknown_user). Sync the user with PUT /v1/users/{uid}."
        case .unknownGroup: "Reached nobody: the group does not exist (unknown_group). Sync it with PUT /v1/groups/{guid} and its members."
        case .noMembers: "Reached nobody: the group has no member but the sender (no_members)."
        }
    }
}
