/// Users found by uid or name.
struct UsersPage: DashboardViewModel {
    static let template = DashboardTemplate.users

    struct Row {
        let uid: String
        let name: String
        let link: String
        let locale: String?
        let tags: String
    }

    let q: String
    let searched: Bool
    let empty: Bool
    let users: [Row]
}
