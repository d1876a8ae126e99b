/// One delivery in a table (the `deliveries` partial of the user, events and event pages).
struct DeliveryRow {
    let event: String
    /// The event's page; a feed item's push links to its campaign or its user instead.
    var eventLink: String?
    /// What a feed item's push was ("campaign push", "feed item push").
    var eventLabel: String?
    let uid: String
    let userLink: String
    let channel: String
    let target: String
    let platform: String?
    let status: String
    let reason: String?
    let attempts: Int
    let providerStatus: String?
    let when: String
}
