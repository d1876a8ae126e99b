/// An error's message and code, in place of the page that failed.
struct ErrorPage: DashboardViewModel {
    static let template = DashboardTemplate.error

    let code: String
    let message: String
}
