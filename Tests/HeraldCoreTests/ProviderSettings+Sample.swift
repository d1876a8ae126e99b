import Foundation
import HeraldCore
import HeraldModels

extension ProviderSettings {
    /// A credential of each kind with plausible facts and every toggle off.
    static func sample(_ kind: ProviderKind) -> ProviderSettings {
        switch kind {
        case .fcm: .fcm(FCMSettings(projectId: "acme-chat", clientEmail: "herald@acme-chat.iam.gserviceaccount.com"))
        case .apns: .apns(APNsSettings(auth: .token(keyId: "ABC123DEFG", teamId: "DEF123GHIJ"), bundleId: "com.acme.app"))
        case .custom: .webhook(WebhookSettings(url: "https://hooks.acme.test/push"))
        case .hms: .hms(HMSSettings(appId: "101234567"))
        case .webpush: .webPush(WebPushSettings(subject: "mailto:push@acme.test", publicKey: VAPIDKey.generate().publicKeyText))
        }
    }
}
