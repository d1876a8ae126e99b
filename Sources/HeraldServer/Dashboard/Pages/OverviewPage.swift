/// Pushes sent, failed and skipped over time and per provider, the top reasons, the queue.
struct OverviewPage: DashboardViewModel {
    static let template = DashboardTemplate.overview

    struct ProviderRow {
        let provider: String
        let sent: Int
        let failed: Int
        let waiting: Int
    }

    struct ReasonRow {
        let status: String
        let reason: String
        let count: Int
    }

    /// The last 7 days (else the last 24 hours).
    let week: Bool
    let sent: Int
    let failed: Int
    let skipped: Int
    let inapp: Int
    /// Pushes devices reported received and opened.
    let received: Int
    let opened: Int
    let depth: Int
    let waitingEvents: Int
    /// SVG built by ``DashboardCharts``.
    let timeline: String
    let providerChart: String
    let byProvider: [ProviderRow]
    let hasProviders: Bool
    let reasons: [ReasonRow]
    let hasReasons: Bool
}
