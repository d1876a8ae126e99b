import Foundation
import HeraldCore
import HeraldModels
import Hummingbird

/// Push templates per event type, receiver type and locale, with a live preview of the title
/// and body rendered for a sample event (the page's script asks for it as you type; without
/// script the Preview button does the same).
extension Dashboard {
    func registerTemplates(on router: Router<BasicRequestContext>) {
        router.get("/dashboard/templates") { request, _ in
            try await page(request) { signedIn in
                let query = request.uri.queryParameters
                let eventType = query.get("eventType").flatMap { try? EventKind.notifiable($0, field: "eventType") }
                guard let eventType else { return try await templateList(signedIn, notice: query.get("saved") != nil ? "Template saved." : nil) }
                let receiver = ReceiverType(rawValue: query.get("receiverType") ?? "user") ?? .user
                let locale = query.get("locale").flatMap { $0.isEmpty ? nil : $0 } ?? "default"
                let (template, builtIn) = try await services.templates.get(appId: signedIn.app.id, eventType: eventType, receiverType: receiver, locale: locale)
                let values = ["eventType": eventType.rawValue, "receiverType": receiver.rawValue, "locale": locale, "title": template.title, "body": template.body,
                              "titleLocKey": template.titleLocKey ?? "", "bodyLocKey": template.bodyLocKey ?? ""]
                return try await templateForm(signedIn, values: values, errors: [:], builtIn: builtIn,
                                              notice: query.get("saved") != nil ? "Template saved." : nil)
            }
        }
        router.post("/dashboard/templates") { request, _ in
            try await form(request) { signedIn, form in
                let values = form.values
                if form.text("action") == "preview" {
                    return try await templateForm(signedIn, values: values, errors: [:], builtIn: false)
                }
                do {
                    let template = try Self.template(form)
                    if form.text("action") == "reset" {
                        try await services.templates.delete(appId: signedIn.app.id, eventType: template.eventType, receiverType: template.receiverType, locale: template.locale)
                    } else {
                        _ = try await services.templates.put(appId: signedIn.app.id, template)
                    }
                    await services.engine.snapshots.invalidate(appId: signedIn.app.id)
                    let query = "eventType=\(template.eventType.rawValue)&receiverType=\(template.receiverType.rawValue)&locale=\(template.locale.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
                    return DashboardView.redirect("/dashboard/templates?\(query)&saved=1")
                } catch {
                    return try await templateForm(signedIn, values: values, errors: Self.errors(error), builtIn: false, status: .unprocessableContent)
                }
            }
        }
        router.post("/dashboard/templates/preview") { request, _ in
            try await form(request) { signedIn, form in
                view.fragment("template-preview", context: await templatePreview(signedIn, form.values))
            }
        }
    }

    static func template(_ form: DashboardForm) throws -> PushTemplate {
        let eventType = try EventKind.notifiable(form.text("eventType") ?? "", field: "eventType")
        guard let receiver = ReceiverType(rawValue: form.text("receiverType") ?? "") else { throw HeraldError.invalidField("receiverType", "must be user or group") }
        return try PushTemplate(eventType: eventType, receiverType: receiver, locale: form.text("locale") ?? "default",
                                title: form.raw("title"), body: form.raw("body"), titleLocKey: form.text("titleLocKey"), bodyLocKey: form.text("bodyLocKey")).validated()
    }

    /// The rendered title and body for the sample event, or what is wrong with the template.
    func templatePreview(_ signedIn: DashboardSignedIn, _ values: [String: String]) async -> [String: Any] {
        do {
            let template = try Self.template(DashboardForm(fields: values.mapValues { [$0] }))
            let text = try await services.templates.preview(appId: signedIn.app.id, eventType: template.eventType, receiverType: template.receiverType,
                                                            locale: template.locale, template: template, event: nil)
            return ["ok": true, "title": text.title, "body": text.body, "locKey": text.locKey ?? "", "titleLocKey": text.titleLocKey ?? ""]
        } catch {
            return ["ok": false, "error": Self.message(DashboardErrors.heraldError(from: error))]
        }
    }

    func templateList(_ signedIn: DashboardSignedIn, notice: String?) async throws -> Response {
        let all = try await services.templates.list(appId: signedIn.app.id, includeBuiltIn: true)
        let rows = all.sorted { ($0.template.eventType.rawValue, $0.template.receiverType.rawValue, $0.template.locale) < ($1.template.eventType.rawValue, $1.template.receiverType.rawValue, $1.template.locale) }
            .map { entry -> [String: Any] in
                let t = entry.template
                let query = "eventType=\(t.eventType.rawValue)&receiverType=\(t.receiverType.rawValue)&locale=\(t.locale.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
                return ["eventType": t.eventType.rawValue, "receiverType": t.receiverType.rawValue, "locale": t.locale, "title": t.title, "body": t.body,
                        "builtIn": entry.builtIn, "link": "/dashboard/templates?\(query)"]
            }
        return view.page("templates", title: "Templates", section: "/dashboard/templates", context: [
            "templates": rows, "eventTypes": Self.options(EventKind.notifiable.map(\.rawValue), selected: nil),
            "receiverTypes": Self.options(ReceiverType.allCases.map(\.rawValue), selected: nil),
            "variables": PushTemplate.variables.joined(separator: ", "),
        ], signedIn: signedIn, notice: notice)
    }

    func templateForm(_ signedIn: DashboardSignedIn, values: [String: String], errors: [String: String], builtIn: Bool, notice: String? = nil,
                      status: HTTPResponse.Status = .ok) async throws -> Response {
        view.page("template", title: "Template", section: "/dashboard/templates", context: [
            "values": values, "errors": errors, "builtIn": builtIn, "preview": await templatePreview(signedIn, values),
            "eventTypes": Self.options(EventKind.notifiable.map(\.rawValue), selected: values["eventType"]),
            "receiverTypes": Self.options(ReceiverType.allCases.map(\.rawValue), selected: values["receiverType"]),
            "variables": PushTemplate.variables.map { "{{\($0)}}" }.joined(separator: " "),
        ], signedIn: signedIn, status: status, notice: notice)
    }
}
