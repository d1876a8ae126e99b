/// The new campaign form: audience, content, push, schedule; a preview of the card.
struct CampaignNewPage: DashboardViewModel {
    static let template = DashboardTemplate.campaignNew

    let values: [String: String]
    let errors: [String: String]
    let categories: [DashboardOption]
    let channels: [DashboardOption]
    let templates: [DashboardOption]
    let audiences: [DashboardOption]
    let pushChecked: Bool
    let preview: CardPreview
}
