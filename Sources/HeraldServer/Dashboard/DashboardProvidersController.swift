import Foundation
import HeraldCore
import HeraldModels
import Hummingbird

/// Providers: the list with safe facts (never a secret), add and edit forms per kind (uploads
/// of the service-account JSON, the .p8 or the .p12), delete, and a test push with the
/// provider's verdict.
struct DashboardProvidersController: Sendable {
    let dashboard: Dashboard
    /// A certificate this close to its end is flagged.
    static let expiryWarning: TimeInterval = 30 * 86_400

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dashboard/providers", use: list)
        router.get("/dashboard/providers/new", use: new)
        router.post("/dashboard/providers", use: create)
        router.get("/dashboard/providers/:providerId", use: show)
        router.post("/dashboard/providers/:providerId", use: update)
        router.post("/dashboard/providers/:providerId/delete", use: delete)
        router.post("/dashboard/providers/:providerId/test", use: test)
    }

    private var services: HeraldServices { dashboard.services }

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            // The Matrix app ids each provider serves, shown as one more fact.
            let bindings = Dictionary(grouping: try await services.matrixAppIds.list(appId: signedIn.app.id), by: \.providerId)
            let rows = try await services.providers.list(appId: signedIn.app.id).map { credential in
                var row = row(credential, now: services.clock.now())
                if let ids = bindings[credential.providerId] {
                    row.facts.append(ProvidersPage.Fact(label: "Matrix app ids", value: ids.map(\.pattern).joined(separator: ", ")))
                }
                return row
            }
            let page = ProvidersPage(
                providers: rows,
                empty: rows.isEmpty,
                kinds: ProviderKind.allCases.map { ProvidersPage.KindLink(kind: $0.rawValue, label: $0.displayName) }
            )
            let notice = request.uri.queryParameters.get("notice") == "deleted" ? "Provider deleted." : nil
            return dashboard.view.page(page, title: "Providers", section: "/dashboard/providers", signedIn: signedIn, notice: notice)
        }
    }

    @Sendable func new(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            let kind = request.uri.queryParameters.get("kind").flatMap(ProviderKind.init(rawValue:)) ?? .fcm
            let values = ["enabled": "on", "auth": "token", "providerId": kind == .custom ? "webhook" : kind.rawValue]
            return form(signedIn, kind: kind, existing: nil, values: values, errors: [:])
        }
    }

    @Sendable func create(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            var values = form.values
            let kind = form.text("kind").flatMap(ProviderKind.init(rawValue:))
            do {
                guard let kind else { throw DashboardProviderForm.unknownKind }
                let input = try DashboardProviderForm.input(form, kind: kind, values: &values, creating: true)
                let created = try await services.providers.create(appId: signedIn.app.id, input)
                return DashboardView.redirect("/dashboard/providers/\(created.providerId)?notice=added")
            } catch {
                return self.form(
                    signedIn,
                    kind: kind ?? .fcm,
                    existing: nil,
                    values: values,
                    errors: Dashboard.errors(error, fields: DashboardProviderForm.fields),
                    status: .unprocessableContent
                )
            }
        }
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            let credential = try await services.providers.get(appId: signedIn.app.id, providerId: try context.parameters.require("providerId"))
            let notice = request.uri.queryParameters.get("notice").map { $0 == "added" ? "Provider added." : "Provider saved." }
            return form(
                signedIn,
                kind: credential.kind,
                existing: credential,
                values: DashboardProviderForm.values(credential),
                errors: [:],
                notice: notice
            )
        }
    }

    @Sendable func update(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            let credential = try await services.providers.get(appId: signedIn.app.id, providerId: try context.parameters.require("providerId"))
            var values = form.values
            do {
                let input = try DashboardProviderForm.input(form, kind: credential.kind, values: &values, creating: false)
                _ = try await services.providers.update(appId: signedIn.app.id, providerId: credential.providerId, input)
                return DashboardView.redirect("/dashboard/providers/\(credential.providerId)?notice=saved")
            } catch {
                return self.form(
                    signedIn,
                    kind: credential.kind,
                    existing: credential,
                    values: values,
                    errors: Dashboard.errors(error, fields: DashboardProviderForm.fields),
                    status: .unprocessableContent
                )
            }
        }
    }

    @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            let providerId = try context.parameters.require("providerId")
            _ = try await services.providers.delete(appId: signedIn.app.id, providerId: providerId, force: form.checked("force"))
            return DashboardView.redirect("/dashboard/providers?notice=deleted")
        }
    }

    /// A test push through the provider; the page shows the provider's verdict.
    @Sendable func test(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            let credential = try await services.providers.get(appId: signedIn.app.id, providerId: try context.parameters.require("providerId"))
            var result = TestResult(values: form.values)
            do {
                let input = TestPushInput(
                    pushToken: form.text("pushToken"),
                    platform: form.text("platform"),
                    uid: form.text("uid"),
                    title: form.text("title") ?? "",
                    body: form.text("body") ?? ""
                )
                let verdict = try await services.testSends.viaProvider(appId: signedIn.app.id, providerId: credential.providerId, input)
                result.verdict = Self.verdict(verdict)
            } catch {
                result.errors = Dashboard.errors(error)
            }
            return self.form(
                signedIn,
                kind: credential.kind,
                existing: credential,
                values: DashboardProviderForm.values(credential),
                errors: [:],
                test: result
            )
        }
    }

    /// What the test form sent, and the provider's verdict or what was wrong with it.
    struct TestResult {
        let values: [String: String]
        var verdict: ProviderPage.Verdict?
        var errors: [String: String] = [:]
    }

    static func verdict(_ verdict: TestSendVerdict) -> ProviderPage.Verdict {
        let result = verdict.result
        let ms = Double(result.latency.components.seconds) * 1_000 + Double(result.latency.components.attoseconds) / 1e15
        return ProviderPage.Verdict(
            ok: result.outcome == .delivered,
            outcome: result.outcome.name,
            status: result.providerStatus.map(String.init) ?? "—",
            reason: result.reason,
            messageId: result.providerMessageId,
            latency: String(format: "%.0f ms", ms),
            pruned: verdict.pruned
        )
    }

    // MARK: Pages

    /// A provider in the list: its safe facts, why it was set aside, its certificate's end.
    private func row(_ credential: ProviderCredential, now: Date) -> ProvidersPage.Row {
        let config = credential.config
        let facts = Self.facts(config.settings).compactMap { label, value in
            value.flatMap { $0.isEmpty ? nil : ProvidersPage.Fact(label: label, value: $0) }
        }
        let certificateExpiry = config.settings.certificateExpiresAt
        var warning: String?
        if let expiry = certificateExpiry {
            if expiry <= now {
                warning = "The certificate expired on \(DashboardFormat.date(expiry)). Pushes through it fail; upload a new one."
            } else if expiry.timeIntervalSince(now) < Self.expiryWarning {
                warning = "The certificate expires in \(Int(expiry.timeIntervalSince(now) / 86_400) + 1) days (\(DashboardFormat.date(expiry)))."
            }
        }
        return ProvidersPage.Row(
            id: credential.providerId,
            kind: credential.kind.displayName,
            enabled: config.enabled,
            facts: facts,
            broken: config.broken?.reason,
            expires: certificateExpiry.map(DashboardFormat.date),
            expiryWarning: warning
        )
    }

    /// The safe facts of a credential, labelled, in the order the list shows them.
    static func facts(_ settings: ProviderSettings) -> [(String, String?)] {
        switch settings {
        case .fcm(let fcm):
            return [("Project", fcm.projectId), ("Service account", fcm.clientEmail)]
        case .apns(let apns):
            var facts: [(String, String?)] = [("Auth", apns.auth.kind.rawValue)]
            if case .token(let keyId, let teamId) = apns.auth { facts += [("Key ID", keyId), ("Team ID", teamId)] }
            facts += [("Bundle ID", apns.bundleId), ("Environment", apns.production ? "production" : "development (sandbox)")]
            if case .certificate(let subject, _) = apns.auth { facts.append(("Certificate", subject)) }
            return facts
        case .webhook(let webhook):
            return [("URL", webhook.url), ("Basic auth user", webhook.basicAuthUsername)]
        case .hms(let hms):
            return [("HMS app", hms.appId)]
        case .webPush(let webPush):
            return [("VAPID subject", webPush.subject), ("Public key", webPush.publicKey)]
        }
    }

    private func form(
        _ signedIn: DashboardSignedIn,
        kind: ProviderKind,
        existing: ProviderCredential?,
        values: [String: String],
        errors: [String: String],
        test: TestResult? = nil,
        notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let platforms = PushPlatform.allCases.filter { $0.tokenKind.providerKind == kind }.map(\.rawValue)
        let page = ProviderPage(
            kind: kind.rawValue,
            kindLabel: kind.displayName,
            values: values,
            errors: errors,
            creating: existing == nil,
            action: existing.map { "/dashboard/providers/\($0.providerId)" } ?? "/dashboard/providers",
            isFCM: kind == .fcm,
            isAPNs: kind == .apns,
            isCustom: kind == .custom,
            isHMS: kind == .hms,
            isWebPush: kind == .webpush,
            vapidPublicKey: existing?.config.settings.webPush?.publicKey,
            tokenAuth: values["auth"] != "certificate",
            certificateAuth: values["auth"] == "certificate",
            platforms: DashboardOption.list(platforms, selected: test?.values["platform"] ?? platforms.first),
            testValues: test?.values ?? ["title": "Herald test", "body": "It works."],
            providerId: existing?.providerId,
            broken: existing?.config.broken?.reason,
            expires: existing?.config.settings.certificateExpiresAt.map(DashboardFormat.date),
            verdict: test?.verdict,
            testErrors: test?.errors ?? [:]
        )
        let title = existing.map { "Provider \($0.providerId)" } ?? "Add \(kind.displayName)"
        return dashboard.view.page(page, title: title, section: "/dashboard/providers", signedIn: signedIn, status: status, notice: notice)
    }
}
