import Foundation
import HeraldCore
import HeraldModels
import Hummingbird

/// Push templates per event type, receiver type and locale, with a live preview of the title
/// and body rendered for a sample event (the page's script asks for it as you type; without
/// script the Preview button does the same).
struct DashboardTemplatesController: Sendable {
    let dashboard: Dashboard

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dashboard/templates", use: show)
        router.post("/dashboard/templates", use: save)
        router.post("/dashboard/templates/preview", use: preview)
    }

    private var services: HeraldServices { dashboard.services }

    /// The list, or with an event type in the query, that template's form.
    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            let query = request.uri.queryParameters
            let notice = query.get("saved") != nil ? "Template saved." : nil
            guard let eventType = query.get("eventType").flatMap({ try? EventKind.notifiable($0, field: "eventType") }) else {
                return try await list(signedIn, notice: notice)
            }
            let receiver = ReceiverType(rawValue: query.get("receiverType") ?? "user") ?? .user
            let locale = query.get("locale").flatMap { $0.isEmpty ? nil : $0 } ?? "default"
            let (template, builtIn) = try await services.templates.get(
                appId: signedIn.app.id,
                eventType: eventType,
                receiverType: receiver,
                locale: locale
            )
            let values = [
                "eventType": eventType.rawValue, "receiverType": receiver.rawValue, "locale": locale, "title": template.title, "body": template.body,
                "titleLocKey": template.titleLocKey ?? "", "bodyLocKey": template.bodyLocKey ?? "",
            ]
            return await form(signedIn, values: values, errors: [:], builtIn: builtIn, notice: notice)
        }
    }

    /// Save, Back to built-in, or (without script) Preview.
    @Sendable func save(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            if form.text("action") == "preview" {
                return await self.form(signedIn, values: form.values, errors: [:], builtIn: false)
            }
            do {
                let template = try Self.template(form)
                if form.text("action") == "reset" {
                    try await services.templates.delete(
                        appId: signedIn.app.id,
                        eventType: template.eventType,
                        receiverType: template.receiverType,
                        locale: template.locale
                    )
                } else {
                    _ = try await services.templates.put(appId: signedIn.app.id, template)
                }
                return DashboardView.redirect("/dashboard/templates?\(Self.query(template))&saved=1")
            } catch {
                return await self.form(signedIn, values: form.values, errors: Dashboard.errors(error), builtIn: false, status: .unprocessableContent)
            }
        }
    }

    @Sendable func preview(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            dashboard.view.fragment(await preview(signedIn, form.values))
        }
    }

    static func template(_ form: DashboardForm) throws -> PushTemplate {
        let eventType = try EventKind.notifiable(form.text("eventType") ?? "", field: "eventType")
        guard let receiver = ReceiverType(rawValue: form.text("receiverType") ?? "") else {
            throw HeraldError.invalidField("receiverType", "must be user or group")
        }
        return try PushTemplate(
            eventType: eventType,
            receiverType: receiver,
            locale: form.text("locale") ?? "default",
            title: form.raw("title"),
            body: form.raw("body"),
            titleLocKey: form.text("titleLocKey"),
            bodyLocKey: form.text("bodyLocKey")
        ).validated()
    }

    /// The query that opens a template's form.
    static func query(_ template: PushTemplate) -> String {
        let locale = template.locale.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "eventType=\(template.eventType.rawValue)&receiverType=\(template.receiverType.rawValue)&locale=\(locale)"
    }

    /// The rendered title and body for the sample event, or what is wrong with the template.
    private func preview(_ signedIn: DashboardSignedIn, _ values: [String: String]) async -> TemplatePreview {
        do {
            let template = try Self.template(DashboardForm(fields: values.mapValues { [$0] }))
            let text = try await services.templates.preview(
                appId: signedIn.app.id,
                eventType: template.eventType,
                receiverType: template.receiverType,
                locale: template.locale,
                template: template,
                event: nil
            )
            return TemplatePreview(ok: true, title: text.title, body: text.body, locKey: text.locKey, error: nil)
        } catch {
            return TemplatePreview(
                ok: false,
                title: nil,
                body: nil,
                locKey: nil,
                error: Dashboard.message(DashboardErrors.heraldError(from: error))
            )
        }
    }

    private func list(_ signedIn: DashboardSignedIn, notice: String?) async throws -> Response {
        let all = try await services.templates.list(appId: signedIn.app.id, includeBuiltIn: true)
        let rows = all.sorted {
            ($0.template.eventType.rawValue, $0.template.receiverType.rawValue, $0.template.locale)
                < ($1.template.eventType.rawValue, $1.template.receiverType.rawValue, $1.template.locale)
        }
        .map { entry in
            let t = entry.template
            return TemplatesPage.Row(
                eventType: t.eventType.rawValue,
                receiverType: t.receiverType.rawValue,
                locale: t.locale,
                title: t.title,
                body: t.body,
                builtIn: entry.builtIn,
                link: "/dashboard/templates?\(Self.query(t))"
            )
        }
        let page = TemplatesPage(
            templates: rows,
            eventTypes: DashboardOption.list(EventKind.notifiable.map(\.rawValue), selected: nil),
            receiverTypes: DashboardOption.list(ReceiverType.allCases.map(\.rawValue), selected: nil),
            variables: PushTemplate.variables.joined(separator: ", ")
        )
        return dashboard.view.page(page, title: "Templates", section: "/dashboard/templates", signedIn: signedIn, notice: notice)
    }

    private func form(
        _ signedIn: DashboardSignedIn,
        values: [String: String],
        errors: [String: String],
        builtIn: Bool,
        notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async -> Response {
        let page = TemplatePage(
            values: values,
            errors: errors,
            builtIn: builtIn,
            preview: await preview(signedIn, values),
            eventTypes: DashboardOption.list(EventKind.notifiable.map(\.rawValue), selected: values["eventType"]),
            receiverTypes: DashboardOption.list(ReceiverType.allCases.map(\.rawValue), selected: values["receiverType"]),
            variables: PushTemplate.variables.map { "{{\($0)}}" }.joined(separator: " ")
        )
        return dashboard.view.page(page, title: "Template", section: "/dashboard/templates", signedIn: signedIn, status: status, notice: notice)
    }
}
