/// One `<option>` of a `<select>`.
struct DashboardOption {
    let value: String
    let label: String
    let selected: Bool

    static func list(_ values: [String], selected: String?, labels: [String: String] = [:]) -> [DashboardOption] {
        values.map { DashboardOption(value: $0, label: labels[$0] ?? $0, selected: $0 == selected) }
    }
}
