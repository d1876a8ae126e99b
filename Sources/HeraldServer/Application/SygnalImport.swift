import Foundation
import HeraldCore
import HeraldModels
import Yams

/// `herald matrix import-sygnal-config`: a Sygnal configuration's apps become an app's providers
/// and Matrix app ids — APNs with a signing key (`keyfile`, `key_id`, `team_id`, `topic`,
/// `platform`, `push_type`, `convert_device_token_to_hex`), FCM v1 (`service_account_file`,
/// `fcm_options`), Web Push (`vapid_private_key`, `vapid_contact_email`, `allowed_endpoints`) —
/// and says what it could not carry over. Files are read relative to the configuration's folder.
public enum SygnalImport {
    public struct Report: Sendable, Equatable {
        /// `app id → provider id (kind)` for each app id bound.
        public var bound: [String] = []
        /// Providers created.
        public var providers: [String] = []
        /// What was not carried over, and why.
        public var notCarried: [String] = []
    }

    public static func run(_ configuration: HeraldConfiguration, appId: String, file: URL) async throws -> Report {
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw HeraldError.invalidField("file", "cannot read \(file.path)")
        }
        guard let root = try Yams.load(yaml: text) as? [String: Any], let apps = root["apps"] as? [String: Any], !apps.isEmpty else {
            throw HeraldError.invalidField("apps", "\(file.lastPathComponent) has no apps: section")
        }
        let folder = file.deletingLastPathComponent()
        return try await AdminCommands.withServices(configuration) { services in
            guard try await services.store.app(id: appId) != nil else { throw HeraldError.notFound("app", appId) }
            var report = Report()
            for (matrixAppId, value) in apps.sorted(by: { $0.key < $1.key }) {
                guard let app = value as? [String: Any] else {
                    report.notCarried.append("\(matrixAppId): not a mapping")
                    continue
                }
                do {
                    try await importApp(matrixAppId, app, appId: appId, folder: folder, services: services, report: &report)
                } catch let error as HeraldError {
                    report.notCarried.append("\(matrixAppId): \(error.message)")
                }
            }
            return report
        }
    }

    static func importApp(
        _ matrixAppId: String,
        _ app: [String: Any],
        appId: String,
        folder: URL,
        services: HeraldServices,
        report: inout Report
    ) async throws {
        let type = app["type"] as? String ?? ""
        let providerId = Self.providerId(for: matrixAppId)
        var input = ProviderInput()
        input.providerId = providerId
        var binding = MatrixAppIds.Input(providerId: providerId)
        let ignored = ["inflight_request_limit", "max_connections", "type"]
        var known: Set<String> = Set(ignored)
        func file(_ key: String) throws -> String {
            guard let path = app[key] as? String else { throw HeraldError.invalidField(key, "is required") }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw HeraldError.invalidField(key, "cannot read \(url.path)") }
            return text
        }
        switch type {
        case "apns":
            known.formUnion(["keyfile", "key_id", "team_id", "topic", "platform", "push_type", "convert_device_token_to_hex", "certfile"])
            if app["certfile"] != nil && app["keyfile"] == nil {
                throw HeraldError.invalidField(
                    "certfile",
                    "is a PEM certificate; Herald takes the .p12: `openssl pkcs12 -export -in cert.pem -out apns.p12`, then add an apns provider with auth certificate"
                )
            }
            input.kind = "apns"
            input.auth = "token"
            input.privateKey = try file("keyfile")
            input.keyId = app["key_id"] as? String
            input.teamId = app["team_id"] as? String
            input.bundleId = app["topic"] as? String
            let platform = (app["platform"] as? String)?.lowercased()
            guard platform == nil || ["production", "prod", "sandbox"].contains(platform!) else {
                throw HeraldError.invalidField("platform", "must be production, prod or sandbox")
            }
            input.production = platform != "sandbox"
            if let pushType = app["push_type"] as? String {
                if APNsPushKind(rawValue: pushType) == nil {
                    report.notCarried.append("\(matrixAppId): push_type \(pushType) (Herald sends alert, background or voip; alert used)")
                } else {
                    binding.apnsPushType = pushType
                }
            }
            binding.convertDeviceTokenToHex = app["convert_device_token_to_hex"] as? Bool ?? true
        case "gcm":
            known.formUnion(["api_version", "project_id", "service_account_file", "fcm_options", "api_key"])
            guard (app["api_version"] as? String) == "v1" else {
                throw HeraldError.invalidField(
                    "api_version",
                    "is legacy: FCM's legacy API is shut down; set api_version v1 with project_id and service_account_file"
                )
            }
            input.kind = "fcm"
            input.serviceAccountJSON = try file("service_account_file")
            if let options = app["fcm_options"] {
                let data = try JSONSerialization.data(withJSONObject: options)
                binding.fcmOptions = try JSONValue(jsonBytes: Array(data)).objectValue
            }
        case "webpush":
            known.formUnion(["vapid_private_key", "vapid_contact_email", "allowed_endpoints", "ttl"])
            input.kind = "webpush"
            input.vapidPrivateKey = try file("vapid_private_key")
            guard let email = app["vapid_contact_email"] as? String else { throw HeraldError.invalidField("vapid_contact_email", "is required") }
            input.subject = email.lowercased().hasPrefix("mailto:") ? email : "mailto:" + email
            binding.allowedEndpoints = app["allowed_endpoints"] as? [String]
            if let ttl = app["ttl"] as? Int, ttl != 900 {
                report.notCarried.append("\(matrixAppId): ttl \(ttl) (Herald sends Sygnal's default, 900)")
            }
        default:
            throw HeraldError.invalidField("type", "'\(type)' is not a pushkin Herald carries over (apns, gcm, webpush)")
        }
        if app["send_badge_counts"] as? Bool == false {
            report.notCarried.append("\(matrixAppId): send_badge_counts false (Herald sends the counts, as Sygnal's default)")
        }
        known.insert("send_badge_counts")
        for key in app.keys.sorted() where !known.contains(key) { report.notCarried.append("\(matrixAppId): \(key) (unknown to Herald)") }
        do {
            _ = try await services.providers.create(appId: appId, input)
            report.providers.append("\(providerId) (\(input.kind ?? ""))")
        } catch let error as HeraldError where error.code == "provider_exists" {
            report.notCarried.append("\(matrixAppId): provider \(providerId) exists already; bound to it unchanged")
        }
        _ = try await services.matrixAppIds.put(appId: appId, pattern: matrixAppId, binding)
        report.bound.append("\(matrixAppId) → \(providerId) (\(input.kind ?? ""))")
    }

    /// A provider id from an app id: `sygnal-` and the app id's letters, digits, `-` and `_`.
    static func providerId(for matrixAppId: String) -> String {
        let cleaned = String(matrixAppId.map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" || $0 == "_" ? $0 : "-" })
        return String(("sygnal-" + cleaned).prefix(64))
    }
}
