/// A user: sessions and presence, push tokens, preferences, recent deliveries.
struct UserPage: DashboardViewModel {
    static let template = DashboardTemplate.user

    struct Session {
        let id: String
        let device: String
        let created: String
        let expires: String
        let presence: String
    }

    struct Token {
        let token: String
        let platform: String
        let provider: String
        let session: String
        let lastSeen: String
    }

    struct Preference {
        let event: String
        let on: Bool
    }

    struct Mute {
        let conversation: String
        let until: String
    }

    let uid: String
    let name: String
    let locale: String
    let tags: String
    let created: String
    let sessions: [Session]
    let online: Bool
    let tokens: [Token]
    let preferences: [Preference]
    let mentionsOnly: Bool
    let dnd: String?
    let hasMutes: Bool
    let mutes: [Mute]
    let deliveries: [DeliveryRow]
}
