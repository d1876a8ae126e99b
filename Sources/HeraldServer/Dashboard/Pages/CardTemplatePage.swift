/// A card template's JSON editor, with its preview.
struct CardTemplatePage: DashboardViewModel {
    static let template = DashboardTemplate.cardTemplate

    let values: [String: String]
    let errors: [String: String]
    let creating: Bool
    let preview: CardPreview
    let categories: [DashboardOption]
    let channels: [DashboardOption]
}
