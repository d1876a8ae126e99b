/// A push template's title and body rendered for a sample event, or what is wrong with it (a
/// fragment of its own too: the page's script asks for it as you type).
struct TemplatePreview: DashboardViewModel {
    static let template = DashboardTemplate.templatePreview

    let ok: Bool
    let title: String?
    let body: String?
    let locKey: String?
    let error: String?
}
