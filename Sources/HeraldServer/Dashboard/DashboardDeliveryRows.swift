import Foundation
import HeraldCore
import HeraldStorage

/// Table rows for deliveries (the user, events and event pages). A feed item's push (its
/// "event" is the item) links to its campaign, or to its user when it was sent on its own.
struct DashboardDeliveryRows {
    let store: SQLStore

    func rows(_ deliveries: [Delivery], appId: String) async throws -> [DeliveryRow] {
        let itemIds = Set(deliveries.compactMap(\.subject.feedItemId))
        let items = itemIds.isEmpty ? [:] : try await store.feedItems(appId: appId, ids: Array(itemIds), content: true)
        return deliveries.map { delivery in
            var row = Self.row(delivery)
            if let itemId = delivery.subject.feedItemId {
                let item = items[itemId]
                row.eventLabel = item?.campaignId != nil ? "campaign push" : "feed item push"
                row.eventLink = item.map(Self.feedItemLink)
            }
            return row
        }
    }

    static func feedItemLink(_ item: FeedItem) -> String {
        if let campaignId = item.campaignId { return "/dashboard/campaigns/\(DashboardFormat.pathComponent(campaignId))" }
        return "/dashboard/users/\(DashboardFormat.pathComponent(item.uid))"
    }

    static func row(_ delivery: Delivery) -> DeliveryRow {
        DeliveryRow(
            event: delivery.subject.id,
            eventLink: "/dashboard/events/\(DashboardFormat.pathComponent(delivery.subject.id))",
            eventLabel: nil,
            uid: delivery.uid,
            userLink: "/dashboard/users/\(DashboardFormat.pathComponent(delivery.uid))",
            channel: delivery.channel.rawValue,
            target: delivery.target.token.map(DashboardFormat.shortToken) ?? Wire.targetText(delivery.target),
            platform: delivery.platform?.rawValue,
            status: delivery.status.rawValue,
            reason: delivery.reason,
            attempts: delivery.attempts,
            providerStatus: delivery.providerStatus.map(String.init),
            when: DashboardFormat.date(delivery.updatedAt)
        )
    }
}
