/// One push template's form, with its preview for a sample event.
struct TemplatePage: DashboardViewModel {
    static let template = DashboardTemplate.template

    let values: [String: String]
    let errors: [String: String]
    let builtIn: Bool
    let preview: TemplatePreview
    let eventTypes: [DashboardOption]
    let receiverTypes: [DashboardOption]
    let variables: String
}
