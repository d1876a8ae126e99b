import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Mustache

/// Renders dashboard pages: a page's own template inside the layout (navigation, sign-out),
/// with the session's form token, as HTML with a strict content-security policy.
///
/// A page that cannot be rendered (a template missing from the library) is never sent as an
/// empty page: it is logged, naming the template, and answered with the error page and status
/// 500, or a plain page of static HTML when even the layout or the error template is missing.
struct DashboardView: Sendable {
    let library: MustacheLibrary
    let logger: Logger

    init(logger: Logger = Logger(label: "herald.dashboard")) throws {
        self.init(library: try DashboardTemplate.library(), logger: logger)
    }

    init(library: MustacheLibrary, logger: Logger) {
        self.library = library
        self.logger = logger
    }

    static let navigation = [
        LayoutPage.NavItem(path: "/dashboard", label: "Overview"),
        LayoutPage.NavItem(path: "/dashboard/settings", label: "Push settings"),
        LayoutPage.NavItem(path: "/dashboard/providers", label: "Providers"),
        LayoutPage.NavItem(path: "/dashboard/templates", label: "Templates"),
        LayoutPage.NavItem(path: "/dashboard/users", label: "Users"),
        LayoutPage.NavItem(path: "/dashboard/events", label: "Events"),
        LayoutPage.NavItem(path: "/dashboard/feed", label: "Feed"),
    ]

    /// A template the library does not have.
    struct RenderError: Error {
        let template: String
    }

    /// HTML to send, and its status (500 for a page that could not be rendered).
    struct Rendered {
        let html: String
        let status: HTTPResponse.Status
    }

    /// A whole page: `model` rendered by its template inside the layout.
    func page<Model: DashboardViewModel>(
        _ model: Model,
        title: String,
        section: String,
        signedIn: DashboardSignedIn?,
        status: HTTPResponse.Status = .ok,
        notice: String? = nil
    ) -> Response {
        let rendered = renderPage(model, title: title, section: section, signedIn: signedIn, status: status, notice: notice)
        return Self.html(rendered.html, status: rendered.status)
    }

    /// A template on its own (a fragment fetched by the page's script).
    func fragment<Model: DashboardViewModel>(_ model: Model, status: HTTPResponse.Status = .ok) -> Response {
        let rendered = renderFragment(model, status: status)
        return Self.html(rendered.html, status: rendered.status)
    }

    func renderPage<Model: DashboardViewModel>(
        _ model: Model,
        title: String,
        section: String,
        signedIn: DashboardSignedIn?,
        status: HTTPResponse.Status = .ok,
        notice: String? = nil
    ) -> Rendered {
        do {
            let content = try render(Model.template, model, csrf: signedIn?.session.csrf)
            return Rendered(html: try layout(title: title, content: content, section: section, signedIn: signedIn, notice: notice), status: status)
        } catch {
            logFailure(error)
            let page = ErrorPage(code: "render_failed", message: Self.failureMessage)
            if let content = try? render(.error, page, csrf: signedIn?.session.csrf),
                let html = try? layout(title: "Error", content: content, section: "", signedIn: signedIn, notice: nil)
            {
                return Rendered(html: html, status: .internalServerError)
            }
            return Rendered(html: Self.staticErrorPage, status: .internalServerError)
        }
    }

    func renderFragment<Model: DashboardViewModel>(_ model: Model, status: HTTPResponse.Status = .ok) -> Rendered {
        do {
            return Rendered(html: try render(Model.template, model, csrf: nil), status: status)
        } catch {
            logFailure(error)
            let html = try? render(.error, ErrorPage(code: "render_failed", message: Self.failureMessage), csrf: nil)
            return Rendered(html: html ?? "<p role=\"alert\">\(Self.failureMessage)</p>", status: .internalServerError)
        }
    }

    /// `model` as its template's context (the session's form token added), rendered.
    func render(_ template: DashboardTemplate, _ model: some DashboardViewModel, csrf: String?) throws(RenderError) -> String {
        var context = DashboardContext.normalized(value: model) as? [String: Any] ?? [:]
        if let csrf { context["csrf"] = csrf }
        guard let text = library.render(context, withTemplate: template.rawValue) else { throw RenderError(template: template.rawValue) }
        return text
    }

    private func layout(
        title: String,
        content: String,
        section: String,
        signedIn: DashboardSignedIn?,
        notice: String?
    ) throws(RenderError) -> String {
        let layout = LayoutPage(
            title: title,
            content: content,
            notice: notice,
            appName: signedIn?.app.name,
            appId: signedIn?.app.id,
            csrf: signedIn?.session.csrf,
            nav: signedIn == nil ? [] : Self.navigation.map { LayoutPage.NavItem(path: $0.path, label: $0.label, current: $0.path == section) }
        )
        return try render(.layout, layout, csrf: nil)
    }

    private func logFailure(_ error: RenderError) {
        logger.error("A dashboard page could not be rendered: its template is missing", metadata: ["template": "\(error.template)"])
    }

    static let failureMessage = "This page could not be shown. The server's log names the template that failed."

    /// What is sent when not even the layout or the error template can be rendered.
    static let staticErrorPage = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Error · Herald</title></head>
        <body><main><h1>Error</h1><p role="alert">\(failureMessage)</p>
        <p><a href="/dashboard">Back to the overview</a></p></main></body></html>
        """

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static var securityHeaders: HTTPFields {
        var headers = HTTPFields()
        // Scripts and styles come from Herald only; card images may be anywhere on HTTPS.
        headers[.contentSecurityPolicy] =
            "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; "
            + "script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        headers[.cacheControl] = "no-store"
        return headers
    }

    static func redirect(_ location: String, cookies: [String] = []) -> Response {
        var headers = securityHeaders
        headers[.location] = location
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }
}
