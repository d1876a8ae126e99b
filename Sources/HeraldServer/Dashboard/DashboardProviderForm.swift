import Foundation
import HeraldCore
import HeraldModels

/// The provider form's fields: read into Core's input, and filled from a stored provider.
enum DashboardProviderForm {
    /// API field names → this form's names.
    static let fields = ["basicAuth.username": "basicAuthUsername", "basicAuth.password": "basicAuthPassword"]

    /// A form whose kind is none of the kinds.
    static var unknownKind: HeraldError {
        HeraldError.invalidField("kind", "must be one of \(ProviderKind.allCases.map(\.rawValue).joined(separator: ", "))")
    }

    static func values(_ credential: ProviderCredential) -> [String: String] {
        let config = credential.config
        var values = ["providerId": credential.providerId, "auth": APNsAuth.token.rawValue]
        var switches = [("enabled", config.enabled), ("includeNotificationKey", config.settings.includesNotification)]
        switch config.settings {
        case .apns(let apns):
            values["auth"] = apns.auth.kind.rawValue
            values["bundleId"] = apns.bundleId
            if case .token(let keyId, let teamId) = apns.auth {
                values["keyId"] = keyId
                values["teamId"] = teamId
            }
            switches += [("production", apns.production), ("contentAvailable", apns.contentAvailable), ("mutableContent", apns.mutableContent)]
        case .webhook(let webhook):
            values["url"] = webhook.url
            values["basicAuthUsername"] = webhook.basicAuthUsername
        case .hms(let hms):
            values["hmsAppId"] = hms.appId
        case .webPush(let webPush):
            values["subject"] = webPush.subject
        case .fcm:
            break
        }
        for (name, on) in switches where on { values[name] = "on" }
        return values
    }

    /// The form's input for Core; uploaded files are read, and kept in `values` so that a
    /// refused form comes back with them (the JSON and PEM as text, the .p12 as base64).
    static func input(_ form: DashboardForm, kind: ProviderKind, values: inout [String: String], creating: Bool) throws -> ProviderInput {
        var input = ProviderInput()
        if creating {
            input.providerId = form.text("providerId")
            input.kind = kind.rawValue
        }
        input.enabled = form.checked("enabled")
        switch kind {
        case .fcm: try fcm(form, &input, values: &values)
        case .apns: try apns(form, &input, values: &values)
        case .custom:
            input.url = form.text("url")
            input.basicAuthUsername = form.text("basicAuthUsername")
            input.basicAuthPassword = form.text("basicAuthPassword")
        case .hms:
            input.hmsAppId = form.text("hmsAppId")
            input.clientSecret = form.text("clientSecret")
            input.includeNotificationKey = form.checked("includeNotificationKey")
        case .webpush:
            input.subject = form.text("subject")
            input.vapidPrivateKey = form.text("vapidPrivateKey")
        }
        // Passwords are never sent back to the browser.
        values["password"] = nil
        values["basicAuthPassword"] = nil
        values["clientSecret"] = nil
        values["vapidPrivateKey"] = nil
        return input
    }

    private static func fcm(_ form: DashboardForm, _ input: inout ProviderInput, values: inout [String: String]) throws {
        if let file = form.file("serviceAccountFile") { values["serviceAccount"] = String(decoding: file.data, as: UTF8.self) }
        if let text = values["serviceAccount"]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
            guard case .object = try DashboardJSON.parse(text, field: "serviceAccount") else {
                throw HeraldError.invalidField("serviceAccount", "must be the service-account JSON object downloaded from Firebase")
            }
            input.serviceAccountJSON = text
        }
        input.includeNotificationKey = form.checked("includeNotificationKey")
    }

    private static func apns(_ form: DashboardForm, _ input: inout ProviderInput, values: inout [String: String]) throws {
        input.auth = form.text("auth") ?? "token"
        input.keyId = form.text("keyId")
        input.teamId = form.text("teamId")
        input.bundleId = form.text("bundleId")
        if let file = form.file("privateKeyFile") { values["privateKey"] = String(decoding: file.data, as: UTF8.self) }
        if let file = form.file("p12File") {
            values["p12Base64"] = file.data.base64EncodedString()
            values["p12Name"] = file.filename
        }
        if input.auth == "token", let pem = values["privateKey"]?.trimmingCharacters(in: .whitespacesAndNewlines), !pem.isEmpty {
            guard pem.contains("-----BEGIN") else {
                throw HeraldError.invalidField("privateKey", "must be the .p8 file's PEM text (-----BEGIN PRIVATE KEY-----)")
            }
            input.privateKey = pem
        }
        if input.auth == "certificate" {
            if let p12 = values["p12Base64"], !p12.isEmpty { input.p12 = p12 }
            input.password = form.text("password")
        }
        input.production = form.checked("production")
        input.contentAvailable = form.checked("contentAvailable")
        input.mutableContent = form.checked("mutableContent")
    }
}
