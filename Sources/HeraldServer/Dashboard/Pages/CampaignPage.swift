/// A campaign: its facts, progress, send and cancel, and its stats with a funnel.
struct CampaignPage: DashboardViewModel {
    static let template = DashboardTemplate.campaign

    struct Engagement {
        let name: String
        let count: Int
    }

    let id: String
    let name: String
    let status: String
    let audience: String
    let sendAt: String
    let started: String
    let finished: String
    let canSend: Bool
    let canCancel: Bool
    /// Sending: the page refreshes itself.
    let refresh: Bool
    let progress: Int
    let items: Int
    let size: Int
    let delivered: Int
    let read: Int
    let engaged: Int
    let pushesSent: Int
    let pushesFailed: Int
    let pushesPending: Int
    let pushesDelivered: Int
    let pushesClicked: Int
    let hasPush: Bool
    let pushTitle: String?
    let pushBody: String?
    let hasEngagements: Bool
    let engagements: [Engagement]
    /// SVG built by ``DashboardCharts``.
    let funnel: String
    /// The card template's id, when it uses one.
    let template: String?
}
