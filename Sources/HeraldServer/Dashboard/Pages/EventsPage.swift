/// The delivery log, newest first, filtered by status.
struct EventsPage: DashboardViewModel {
    static let template = DashboardTemplate.events

    let deliveries: [DeliveryRow]
    let statuses: [DashboardOption]
    /// The next page's link, if there is one.
    let next: String?
}
