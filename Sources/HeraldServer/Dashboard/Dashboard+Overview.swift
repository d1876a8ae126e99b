import Foundation
import HeraldCore
import Hummingbird

/// Overview: pushes sent, failed and skipped over time, per provider, the top reasons for
/// failing or skipping, and the queue's depth.
extension Dashboard {
    func registerOverview(on router: Router<BasicRequestContext>) {
        router.get("/dashboard") { request, _ in try await page(request) { try await overview(request, $0) } }
    }

    func overview(_ request: Request, _ signedIn: DashboardSignedIn) async throws -> Response {
        let week = request.uri.queryParameters.get("range") == "7d"
        let now = services.clock.now()
        let bucket = week ? 6 * 3_600 : 3_600
        let since = now.addingTimeInterval(week ? -7 * 86_400 + Double(bucket) : -23 * 3_600)
        let stats = try await services.store.deliveryStats(appId: signedIn.app.id, since: since, now: now, bucketSeconds: bucket)
        let depth = try await services.store.outboxDepth()
        let waitingEvents = try await services.store.pendingEventCount()

        let label = DashboardFormat.utc(week ? "EEE HH:mm" : "HH:mm")
        let labels = stats.buckets.map { label.string(from: $0.start) }
        func values(_ statuses: [DeliveryStatus]) -> [Int] {
            stats.buckets.map { bucket in statuses.reduce(0) { $0 + (bucket.counts[$1] ?? 0) } }
        }
        let timeline = DashboardCharts.stackedColumns(
            title: "Deliveries per \(week ? "6 hours" : "hour"), \(week ? "last 7 days" : "last 24 hours")", labels: labels, series: [
                .init(name: "sent", cssClass: "c-delivered", values: values([.delivered])),
                .init(name: "in-app", cssClass: "c-inapp", values: values([.inapp])),
                .init(name: "failed", cssClass: "c-failed", values: values([.failed, .expired])),
                .init(name: "skipped", cssClass: "c-skipped", values: values([.skipped])),
                .init(name: "waiting", cssClass: "c-pending", values: values([.pending, .sending])),
            ])
        let providers = try await services.providers.list(appId: signedIn.app.id)
        let names = Dictionary(providers.map { ($0.providerId, "\($0.providerId) (\($0.kind.rawValue))") }, uniquingKeysWith: { $1 })
        let byProvider = stats.byProvider.filter { $0.key != "-" }.sorted { $0.key < $1.key }.map { id, counts -> [String: Any] in
            ["provider": names[id] ?? id, "sent": counts[.delivered] ?? 0, "failed": (counts[.failed] ?? 0) + (counts[.expired] ?? 0),
             "waiting": (counts[.pending] ?? 0) + (counts[.sending] ?? 0)]
        }
        let providerChart = DashboardCharts.bars(title: "Pushes sent per provider", items: stats.byProvider.filter { $0.key != "-" }
            .sorted { $0.key < $1.key }.map { (names[$0.key] ?? $0.key, $0.value[.delivered] ?? 0, "c-delivered") })
        let reasons = stats.topReasons.map { reason -> [String: Any] in
            ["status": reason.status.rawValue, "reason": reason.reason.isEmpty ? "(none)" : reason.reason, "count": reason.count]
        }
        return view.page("overview", title: "Overview", section: "/dashboard", context: [
            "week": week,
            "sent": stats.total(.delivered), "failed": stats.total(.failed) + stats.total(.expired), "skipped": stats.total(.skipped),
            "inapp": stats.total(.inapp), "depth": depth, "waitingEvents": waitingEvents,
            "timeline": timeline, "providerChart": providerChart, "byProvider": byProvider, "hasProviders": !byProvider.isEmpty,
            "reasons": reasons, "hasReasons": !reasons.isEmpty,
        ], signedIn: signedIn)
    }
}
