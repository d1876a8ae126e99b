/// The push templates in force, and a form to pick one to edit.
struct TemplatesPage: DashboardViewModel {
    static let template = DashboardTemplate.templates

    struct Row {
        let eventType: String
        let receiverType: String
        let locale: String
        let title: String
        let body: String
        let builtIn: Bool
        let link: String
    }

    let templates: [Row]
    let eventTypes: [DashboardOption]
    let receiverTypes: [DashboardOption]
    let variables: String
}
