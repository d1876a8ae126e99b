/// The frame of every page: title, navigation and sign-out (when signed in), the page's HTML.
struct LayoutPage: DashboardViewModel {
    static let template = DashboardTemplate.layout

    struct NavItem {
        let path: String
        let label: String
        var current = false
    }

    let title: String
    /// The page's own template, rendered.
    let content: String
    let notice: String?
    let appName: String?
    let appId: String?
    let csrf: String?
    let nav: [NavItem]
}
