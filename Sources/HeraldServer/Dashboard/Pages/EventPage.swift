/// One event: its facts, why it reached nobody (if it did), every recipient's decision.
struct EventPage: DashboardViewModel {
    static let template = DashboardTemplate.event

    struct Count {
        let status: String
        let count: Int
    }

    let type: String
    let status: String
    let recipients: Int
    let received: String
    let finished: String
    let counts: [Count]
    let deliveries: [DeliveryRow]
    let truncated: Bool
    /// The event as posted (JSON).
    let body: String?
    let reason: String?
}
