/// The providers with their safe facts (never a secret), and links to add one of each kind.
struct ProvidersPage: DashboardViewModel {
    static let template = DashboardTemplate.providers

    struct Fact {
        let label: String
        let value: String
    }

    struct Row {
        let id: String
        /// The kind's display name.
        let kind: String
        let enabled: Bool
        var facts: [Fact]
        /// Why Herald set it aside, if it did.
        let broken: String?
        let expires: String?
        let expiryWarning: String?
    }

    struct KindLink {
        let kind: String
        let label: String
    }

    let providers: [Row]
    let empty: Bool
    let kinds: [KindLink]
}
