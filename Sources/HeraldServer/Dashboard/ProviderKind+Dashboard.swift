import HeraldModels

extension ProviderKind {
    /// The kind's name as the dashboard shows it.
    var displayName: String {
        switch self {
        case .fcm: "Firebase Cloud Messaging"
        case .apns: "Apple Push Notification service"
        case .custom: "Custom webhook"
        case .hms: "Huawei Push Kit"
        case .webpush: "Web Push (browsers, UnifiedPush)"
        }
    }
}
