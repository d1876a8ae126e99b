import Foundation
import HeraldCore
import HeraldModels
import Hummingbird

/// Providers: the list with safe facts (never a secret), add and edit forms per kind (uploads
/// of the service-account JSON, the .p8 or the .p12), delete, and a test push with the
/// provider's verdict.
extension Dashboard {
    /// A certificate this close to its end is flagged.
    static let expiryWarning: TimeInterval = 30 * 86_400
    static let providerKinds = ["fcm", "apns", "custom", "hms"]
    /// API field names → this form's names.
    static let providerFields = ["basicAuth.username": "basicAuthUsername", "basicAuth.password": "basicAuthPassword"]

    func registerProviders(on router: Router<BasicRequestContext>) {
        router.get("/dashboard/providers") { request, _ in
            try await page(request) { signedIn in
                try await providerList(signedIn, notice: request.uri.queryParameters.get("notice"))
            }
        }
        router.get("/dashboard/providers/new") { request, _ in
            try await page(request) { signedIn in
                let kind = request.uri.queryParameters.get("kind").flatMap { Self.providerKinds.contains($0) ? $0 : nil } ?? "fcm"
                return providerForm(signedIn, kind: kind, existing: nil, values: ["enabled": "on", "auth": "token", "providerId": kind == "custom" ? "webhook" : kind],
                                    errors: [:])
            }
        }
        router.post("/dashboard/providers") { request, _ in
            try await form(request) { signedIn, form in
                let kind = form.text("kind") ?? ""
                var values = form.values
                do {
                    let input = try Self.providerInput(form, kind: kind, values: &values, creating: true)
                    let created = try await services.providers.create(appId: signedIn.app.id, input)
                    await services.engine.snapshots.invalidate(appId: signedIn.app.id)
                    return DashboardView.redirect("/dashboard/providers/\(created.providerId)?notice=added")
                } catch {
                    return providerForm(signedIn, kind: Self.providerKinds.contains(kind) ? kind : "fcm", existing: nil, values: values,
                                        errors: Self.errors(error, fields: Self.providerFields), status: .unprocessableContent)
                }
            }
        }
        router.get("/dashboard/providers/:providerId") { request, context in
            try await page(request) { signedIn in
                let credential = try await services.providers.get(appId: signedIn.app.id, providerId: try context.parameters.require("providerId"))
                let notice = request.uri.queryParameters.get("notice").map { $0 == "added" ? "Provider added." : "Provider saved." }
                return providerForm(signedIn, kind: credential.kind.rawValue, existing: credential, values: Self.providerValues(credential),
                                    errors: [:], notice: notice)
            }
        }
        router.post("/dashboard/providers/:providerId") { request, context in
            try await form(request) { signedIn, form in
                let credential = try await services.providers.get(appId: signedIn.app.id, providerId: try context.parameters.require("providerId"))
                var values = form.values
                do {
                    let input = try Self.providerInput(form, kind: credential.kind.rawValue, values: &values, creating: false)
                    _ = try await services.providers.update(appId: signedIn.app.id, providerId: credential.providerId, input)
                    await services.engine.snapshots.invalidate(appId: signedIn.app.id)
                    return DashboardView.redirect("/dashboard/providers/\(credential.providerId)?notice=saved")
                } catch {
                    return providerForm(signedIn, kind: credential.kind.rawValue, existing: credential, values: values,
                                        errors: Self.errors(error, fields: Self.providerFields), status: .unprocessableContent)
                }
            }
        }
        router.post("/dashboard/providers/:providerId/delete") { request, context in
            try await form(request) { signedIn, form in
                let providerId = try context.parameters.require("providerId")
                _ = try await services.providers.delete(appId: signedIn.app.id, providerId: providerId, force: form.checked("force"))
                await services.engine.snapshots.invalidate(appId: signedIn.app.id)
                return DashboardView.redirect("/dashboard/providers?notice=deleted")
            }
        }
        router.post("/dashboard/providers/:providerId/test") { request, context in
            try await form(request) { signedIn, form in
                let credential = try await services.providers.get(appId: signedIn.app.id, providerId: try context.parameters.require("providerId"))
                var test: [String: Any] = ["values": form.values]
                do {
                    let input = TestPushInput(pushToken: form.text("pushToken"), platform: form.text("platform"), uid: form.text("uid"),
                                              title: form.text("title") ?? "", body: form.text("body") ?? "")
                    let verdict = try await services.testSends.viaProvider(appId: signedIn.app.id, providerId: credential.providerId, input)
                    test["verdict"] = Self.verdict(verdict)
                } catch {
                    test["errors"] = Self.errors(error)
                }
                return providerForm(signedIn, kind: credential.kind.rawValue, existing: credential, values: Self.providerValues(credential),
                                    errors: [:], test: test)
            }
        }
    }

    static func verdict(_ verdict: TestSendVerdict) -> [String: Any] {
        let result = verdict.result
        let ms = Double(result.latency.components.seconds) * 1_000 + Double(result.latency.components.attoseconds) / 1e15
        return [
            "ok": result.outcome == .delivered, "outcome": result.outcome.name, "status": result.providerStatus.map(String.init) ?? "—",
            "reason": result.reason ?? "", "messageId": result.providerMessageId ?? "", "latency": String(format: "%.0f ms", ms),
            "pruned": verdict.pruned,
        ]
    }

    // MARK: List

    func providerList(_ signedIn: DashboardSignedIn, notice: String?) async throws -> Response {
        let now = services.clock.now()
        let rows = try await services.providers.list(appId: signedIn.app.id).map { credential -> [String: Any] in
            var facts: [[String: String]] = []
            func fact(_ label: String, _ value: String?) { if let value, !value.isEmpty { facts.append(["label": label, "value": value]) } }
            let config = credential.config
            switch config.settings {
            case .fcm(let fcm):
                fact("Project", fcm.projectId)
                fact("Service account", fcm.clientEmail)
            case .apns(let apns):
                fact("Auth", apns.auth.kind.rawValue)
                if case .token(let keyId, let teamId) = apns.auth {
                    fact("Key ID", keyId)
                    fact("Team ID", teamId)
                }
                fact("Bundle ID", apns.bundleId)
                fact("Environment", apns.production ? "production" : "development (sandbox)")
                if case .certificate(let subject, _) = apns.auth { fact("Certificate", subject) }
            case .webhook(let webhook):
                fact("URL", webhook.url)
                fact("Basic auth user", webhook.basicAuthUsername)
            case .hms(let hms):
                fact("HMS app", hms.appId)
            }
            var row: [String: Any] = ["id": credential.providerId, "kind": Self.kindLabel(credential.kind.rawValue), "enabled": config.enabled,
                                      "facts": facts, "broken": config.broken?.reason ?? ""]
            if let expiry = config.settings.apns?.certificateExpiresAt {
                row["expires"] = DashboardFormat.date(expiry)
                if expiry <= now {
                    row["expiryWarning"] = "The certificate expired on \(DashboardFormat.date(expiry)). Pushes through it fail; upload a new one."
                } else if expiry.timeIntervalSince(now) < Self.expiryWarning {
                    row["expiryWarning"] = "The certificate expires in \(Int(expiry.timeIntervalSince(now) / 86_400) + 1) days (\(DashboardFormat.date(expiry)))."
                }
            }
            return row
        }
        let notices = ["deleted": "Provider deleted."]
        return view.page("providers", title: "Providers", section: "/dashboard/providers", context: [
            "providers": rows, "empty": rows.isEmpty,
            "kinds": Self.providerKinds.map { ["kind": $0, "label": Self.kindLabel($0)] },
        ], signedIn: signedIn, notice: notice.flatMap { notices[$0] })
    }

    static func kindLabel(_ kind: String) -> String {
        ["fcm": "Firebase Cloud Messaging", "apns": "Apple Push Notification service", "custom": "Custom webhook", "hms": "Huawei Push Kit"][kind] ?? kind
    }

    // MARK: Form

    static func providerValues(_ credential: ProviderCredential) -> [String: String] {
        let config = credential.config
        var values = ["providerId": credential.providerId, "auth": "token"]
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
            values["basicAuthUsername"] = webhook.basicAuthUsername ?? ""
        case .hms(let hms):
            values["hmsAppId"] = hms.appId
        case .fcm:
            break
        }
        for (name, on) in switches where on { values[name] = "on" }
        return values
    }

    /// The form's input for Core; uploaded files are read, and kept in `values` so that a
    /// refused form comes back with them (the JSON and PEM as text, the .p12 as base64).
    static func providerInput(_ form: DashboardForm, kind: String, values: inout [String: String], creating: Bool) throws -> ProviderInput {
        var input = ProviderInput()
        if creating {
            input.providerId = form.text("providerId")
            input.kind = kind
        }
        input.enabled = form.checked("enabled")
        switch kind {
        case "fcm":
            if let file = form.file("serviceAccountFile") { values["serviceAccount"] = String(decoding: file.data, as: UTF8.self) }
            if let text = values["serviceAccount"]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
                guard case .object = try DashboardJSON.parse(text, field: "serviceAccount") else {
                    throw HeraldError.invalidField("serviceAccount", "must be the service-account JSON object downloaded from Firebase")
                }
                input.serviceAccountJSON = text
            }
            input.includeNotificationKey = form.checked("includeNotificationKey")
        case "apns":
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
        case "custom":
            input.url = form.text("url")
            input.basicAuthUsername = form.text("basicAuthUsername")
            input.basicAuthPassword = form.text("basicAuthPassword")
        case "hms":
            input.hmsAppId = form.text("hmsAppId")
            input.clientSecret = form.text("clientSecret")
            input.includeNotificationKey = form.checked("includeNotificationKey")
        default:
            throw HeraldError.invalidField("kind", "must be one of \(providerKinds.joined(separator: ", "))")
        }
        // Passwords are never sent back to the browser.
        values["password"] = nil
        values["basicAuthPassword"] = nil
        values["clientSecret"] = nil
        return input
    }

    func providerForm(_ signedIn: DashboardSignedIn, kind: String, existing: ProviderCredential?, values: [String: String],
                      errors: [String: String], test: [String: Any]? = nil, notice: String? = nil,
                      status: HTTPResponse.Status = .ok) -> Response {
        let platforms = PushPlatform.allCases.filter { $0.tokenKind.providerKind.rawValue == kind }.map(\.rawValue)
        var context: [String: Any] = [
            "kind": kind, "kindLabel": Self.kindLabel(kind), "values": values, "errors": errors, "creating": existing == nil,
            "action": existing.map { "/dashboard/providers/\($0.providerId)" } ?? "/dashboard/providers",
            "isFCM": kind == "fcm", "isAPNs": kind == "apns", "isCustom": kind == "custom", "isHMS": kind == "hms",
            "tokenAuth": values["auth"] != "certificate", "certificateAuth": values["auth"] == "certificate",
            "platforms": Self.options(platforms, selected: (test?["values"] as? [String: String])?["platform"] ?? platforms.first),
            "testValues": (test?["values"] as? [String: String]) ?? ["title": "Herald test", "body": "It works."],
        ]
        if let existing {
            context["providerId"] = existing.providerId
            context["broken"] = existing.config.broken?.reason ?? ""
            if let expiry = existing.config.settings.apns?.certificateExpiresAt { context["expires"] = DashboardFormat.date(expiry) }
            context["hasSecret"] = true
        }
        if let test {
            if let verdict = test["verdict"] { context["verdict"] = verdict }
            context["testErrors"] = test["errors"] ?? [String: String]()
        }
        let title = existing.map { "Provider \($0.providerId)" } ?? "Add \(Self.kindLabel(kind))"
        return view.page("provider", title: title, section: "/dashboard/providers", context: context, signedIn: signedIn, status: status, notice: notice)
    }
}
