import HeraldCore

/// Where a card or campaign is filed: the app's categories, channels and card templates as the
/// options of a form's selects (each with a "none" first).
struct DashboardFiling {
    let categories: [DashboardOption]
    let channels: [DashboardOption]
    let templates: [DashboardOption]

    init(_ feed: FeedManagement, appId: String, values: [String: String]) async throws {
        let categories = try await feed.list(appId: appId, kind: .category, cursor: nil, limit: 200).items.map(\.id)
        let channels = try await feed.list(appId: appId, kind: .channel, cursor: nil, limit: 200).items.map(\.id)
        let templates = try await feed.list(appId: appId, kind: .template, cursor: nil, limit: 200).items.map(\.id)
        self.categories = DashboardOption.list([""] + categories, selected: values["categoryId"] ?? "", labels: ["": "none"])
        self.channels = DashboardOption.list([""] + channels, selected: values["channelId"] ?? "", labels: ["": "none"])
        self.templates = DashboardOption.list([""] + templates, selected: values["templateId"] ?? "", labels: ["": "none: the card below"])
    }
}
