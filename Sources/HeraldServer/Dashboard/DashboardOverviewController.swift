import Foundation
import HeraldCore
import Hummingbird

/// Overview: pushes sent, failed and skipped over time, per provider, the top reasons for
/// failing or skipping, and the queue's depth.
struct DashboardOverviewController: Sendable {
    let dashboard: Dashboard

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dashboard", use: show)
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            try await overview(signedIn, week: request.uri.queryParameters.get("range") == "7d")
        }
    }

    private func overview(_ signedIn: DashboardSignedIn, week: Bool) async throws -> Response {
        let services = dashboard.services
        let now = services.clock.now()
        let bucket = week ? 6 * 3_600 : 3_600
        let since = now.addingTimeInterval(week ? -7 * 86_400 + Double(bucket) : -23 * 3_600)
        let stats = try await services.store.deliveryStats(appId: signedIn.app.id, since: since, now: now, bucketSeconds: bucket)
        let providers = try await services.providers.list(appId: signedIn.app.id)
        let names = Dictionary(providers.map { ($0.providerId, "\($0.providerId) (\($0.kind.rawValue))") }, uniquingKeysWith: { $1 })
        let perProvider = stats.byProvider.filter { $0.key != "-" }.sorted { $0.key < $1.key }
        let byProvider = perProvider.map { id, counts in
            OverviewPage.ProviderRow(
                provider: names[id] ?? id,
                sent: counts[.delivered] ?? 0,
                failed: (counts[.failed] ?? 0) + (counts[.expired] ?? 0),
                waiting: (counts[.pending] ?? 0) + (counts[.sending] ?? 0)
            )
        }
        let reasons = stats.topReasons.map { reason in
            OverviewPage.ReasonRow(status: reason.status.rawValue, reason: reason.reason.isEmpty ? "(none)" : reason.reason, count: reason.count)
        }
        let page = OverviewPage(
            week: week,
            sent: stats.total(.delivered),
            failed: stats.total(.failed) + stats.total(.expired),
            skipped: stats.total(.skipped),
            inapp: stats.total(.inapp),
            received: stats.received,
            opened: stats.opened,
            depth: try await services.store.outboxDepth(),
            waitingEvents: try await services.store.pendingEventCount(),
            timeline: Self.timeline(stats, week: week),
            providerChart: DashboardCharts.bars(
                title: "Pushes sent per provider",
                items: perProvider.map { (names[$0.key] ?? $0.key, $0.value[.delivered] ?? 0, "c-delivered") }
            ),
            byProvider: byProvider,
            hasProviders: !byProvider.isEmpty,
            reasons: reasons,
            hasReasons: !reasons.isEmpty
        )
        return dashboard.view.page(page, title: "Overview", section: "/dashboard", signedIn: signedIn)
    }

    /// Deliveries per hour (or per 6 hours over a week), stacked by what became of them.
    private static func timeline(_ stats: DeliveryStats, week: Bool) -> String {
        let label = DashboardFormat.utc(week ? "EEE HH:mm" : "HH:mm")
        func values(_ statuses: [DeliveryStatus]) -> [Int] {
            stats.buckets.map { bucket in statuses.reduce(0) { $0 + (bucket.counts[$1] ?? 0) } }
        }
        return DashboardCharts.stackedColumns(
            title: "Deliveries per \(week ? "6 hours" : "hour"), \(week ? "last 7 days" : "last 24 hours")",
            labels: stats.buckets.map { label.string(from: $0.start) },
            series: [
                .init(name: "sent", cssClass: "c-delivered", values: values([.delivered])),
                .init(name: "in-app", cssClass: "c-inapp", values: values([.inapp])),
                .init(name: "failed", cssClass: "c-failed", values: values([.failed, .expired])),
                .init(name: "skipped", cssClass: "c-skipped", values: values([.skipped])),
                .init(name: "waiting", cssClass: "c-pending", values: values([.pending, .sending])),
            ]
        )
    }
}
