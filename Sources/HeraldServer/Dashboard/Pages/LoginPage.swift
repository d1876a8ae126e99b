/// The sign-in form (its own form token: nobody is signed in yet).
struct LoginPage: DashboardViewModel {
    static let template = DashboardTemplate.login

    let csrf: String
    let error: String?
    /// Where to go once signed in.
    let next: String
}
