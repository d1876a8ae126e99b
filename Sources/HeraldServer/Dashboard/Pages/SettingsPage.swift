/// The push settings form.
struct SettingsPage: DashboardViewModel {
    static let template = DashboardTemplate.settings

    struct Switch {
        let name: String
        let label: String
        let help: String
        let checked: Bool
    }

    /// The form's values by field name (checkboxes: "on").
    let values: [String: String]
    /// Messages by field name, or "form".
    let errors: [String: String]
    let switches: [Switch]
    let policies: [DashboardOption]
    let formats: [DashboardOption]
    let contentModes: [DashboardOption]
}
