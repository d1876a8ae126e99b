/// A provider's add or edit form, with a test push and its verdict, and delete.
struct ProviderPage: DashboardViewModel {
    static let template = DashboardTemplate.provider

    /// The provider's answer to a test push.
    struct Verdict {
        let ok: Bool
        let outcome: String
        let status: String
        let reason: String?
        let messageId: String?
        let latency: String
        let pruned: Bool
    }

    let kind: String
    let kindLabel: String
    let values: [String: String]
    let errors: [String: String]
    let creating: Bool
    let action: String
    let isFCM: Bool
    let isAPNs: Bool
    let isCustom: Bool
    let isHMS: Bool
    let isWebPush: Bool
    /// A webpush provider's public key, for the browser's `applicationServerKey`.
    let vapidPublicKey: String?
    let tokenAuth: Bool
    let certificateAuth: Bool
    let platforms: [DashboardOption]
    let testValues: [String: String]
    let providerId: String?
    let broken: String?
    let expires: String?
    let verdict: Verdict?
    let testErrors: [String: String]
}
