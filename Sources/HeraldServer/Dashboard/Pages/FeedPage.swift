/// The feed's channels, categories, card templates and campaigns, with forms to add them.
struct FeedPage: DashboardViewModel {
    static let template = DashboardTemplate.feed

    struct Channel {
        let id: String
        let name: String
        let description: String?
    }

    struct Category {
        let id: String
        let label: String
    }

    struct Template {
        let id: String
        let name: String
        let link: String
        let category: String?
        let channel: String?
    }

    struct Campaign {
        let id: String
        let name: String
        let status: String
        let link: String
        let audience: String
        let items: Int
        let size: Int
        let sendAt: String
    }

    let values: [String: String]
    let errors: [String: String]
    let channels: [Channel]
    let categories: [Category]
    let templates: [Template]
    let campaigns: [Campaign]
}
