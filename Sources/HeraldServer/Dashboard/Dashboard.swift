import Foundation
import HeraldCore
import HeraldModels
import HTTPTypes
import Hummingbird

/// The dashboard served at `/dashboard`: server-rendered pages over the same use cases as the
/// API. Signing in with an app API key gives a signed, HTTP-only session cookie; every form
/// carries the session's token (CSRF) and every POST is checked against it and its origin.
struct Dashboard: Sendable {
    let services: HeraldServices
    let view: DashboardView
    let cookies: DashboardCookies
    /// Largest form accepted (uploads of credentials and card JSON are small).
    static let maxFormBytes = 1 << 20

    init(services: HeraldServices) throws {
        self.services = services
        self.view = try DashboardView()
        self.cookies = DashboardCookies(key: services.dashboardKey)
    }

    static func register(on router: Router<BasicRequestContext>, services: HeraldServices) throws {
        let dashboard = try Dashboard(services: services)
        router.get("/dashboard/assets/dashboard.css") { _, _ in DashboardAssets.response(DashboardAssets.css, type: "text/css; charset=utf-8") }
        router.get("/dashboard/assets/dashboard.js") { _, _ in DashboardAssets.response(DashboardAssets.js, type: "text/javascript; charset=utf-8") }
        router.get("/dashboard/login") { request, _ in dashboard.loginPage(request) }
        router.post("/dashboard/login") { request, _ in try await dashboard.login(request) }
        router.post("/dashboard/logout") { request, _ in try await dashboard.logout(request) }
        dashboard.registerOverview(on: router)
        dashboard.registerSettings(on: router)
        dashboard.registerProviders(on: router)
        dashboard.registerTemplates(on: router)
        dashboard.registerUsers(on: router)
        dashboard.registerFeed(on: router)
    }

    // MARK: Sessions

    /// The signed-in session of a request, if its cookie is valid and its API key still works.
    func signedIn(_ request: Request) async throws -> DashboardSignedIn? {
        guard let value = DashboardCookies.value(DashboardCookies.session, in: request.headers[.cookie]),
              let session = cookies.open(value, now: services.clock.now()) else { return nil }
        let keys = try await services.store.apiKeys(hashPrefix: session.keyHashPrefix)
        guard keys.contains(where: { $0.owner == session.appId }), let app = try await services.store.app(id: session.appId) else { return nil }
        return DashboardSignedIn(session: session, app: app)
    }

    /// Runs a page for a signed-in user (else sends them to sign in), turning errors into an
    /// error page with the right status.
    func page(_ request: Request, _ body: (DashboardSignedIn) async throws -> Response) async throws -> Response {
        guard let signedIn = try await signedIn(request) else {
            let next = request.uri.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return DashboardView.redirect("/dashboard/login?next=\(next)")
        }
        do {
            return try await body(signedIn)
        } catch {
            let failure = DashboardErrors.heraldError(from: error)
            return view.page("error", title: "Error", section: "", context: ["code": failure.code, "message": failure.message],
                             signedIn: signedIn, status: DashboardErrors.status(of: failure.kind))
        }
    }

    /// A form POST by a signed-in user: the body parsed, the form token and origin checked.
    func form(_ request: Request, _ body: (DashboardSignedIn, DashboardForm) async throws -> Response) async throws -> Response {
        try await page(request) { signedIn in
            let form = try await readForm(request)
            guard sameOrigin(request), let token = form.text("_csrf"), ConstantTime.equals(token, signedIn.session.csrf) else {
                throw HeraldError(.forbidden, code: "csrf", "the form is out of date or did not come from this dashboard; reload the page and try again")
            }
            return try await body(signedIn, form)
        }
    }

    func readForm(_ request: Request) async throws -> DashboardForm {
        let buffer = try await request.body.collect(upTo: Self.maxFormBytes)
        return try DashboardForm.parse(contentType: request.headers[.contentType], body: Data(buffer.readableBytesView))
    }

    /// A POST's `Origin` (when the browser sends one) names this host.
    func sameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin], origin != "null" else { return true }
        guard let host = request.head.authority, let url = URL(string: origin), let originHost = url.host else { return false }
        return originHost + (url.port.map { ":\($0)" } ?? "") == host || originHost == host
    }

    func secure(_ request: Request) -> Bool {
        request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https" || request.uri.scheme == .https
    }

    // MARK: Sign-in

    func loginPage(_ request: Request, error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        let token = DashboardSession.random()
        var response = view.page("login", title: "Sign in", section: "", context: [
            "csrf": token, "error": error ?? "", "next": request.uri.queryParameters.get("next") ?? "",
        ], signedIn: nil, status: status)
        response.headers.append(HTTPField(name: .setCookie, value: DashboardCookies.header(DashboardCookies.login, token, maxAge: 3_600, secure: secure(request))))
        return response
    }

    func login(_ request: Request) async throws -> Response {
        let form = try await readForm(request)
        let expected = DashboardCookies.value(DashboardCookies.login, in: request.headers[.cookie]) ?? ""
        guard sameOrigin(request), let token = form.text("_csrf"), !expected.isEmpty, ConstantTime.equals(token, expected) else {
            return loginPage(request, error: "The sign-in form expired. Please try again.", status: .forbidden)
        }
        guard let key = form.text("apiKey") else { return loginPage(request, error: "Enter your app's API key.", status: .unprocessableContent) }
        let appId: String
        do {
            appId = try await services.authenticator.admin(bearer: key)
        } catch {
            return loginPage(request, error: "That API key is not valid.", status: .unauthorized)
        }
        let session = DashboardSession(appId: appId, keyHashPrefix: String(SHA256SecretHasher().hash(key).prefix(16)), csrf: DashboardSession.random(),
                                       expires: services.clock.now().addingTimeInterval(DashboardSession.lifetime))
        let next = form.text("next").flatMap { $0.removingPercentEncoding }.flatMap { $0.hasPrefix("/dashboard") && !$0.hasPrefix("//") ? $0 : nil }
        return DashboardView.redirect(next ?? "/dashboard", cookies: [
            DashboardCookies.header(DashboardCookies.session, cookies.seal(session), maxAge: Int(DashboardSession.lifetime), secure: secure(request)),
            DashboardCookies.header(DashboardCookies.login, "", maxAge: 0, secure: secure(request)),
        ])
    }

    func logout(_ request: Request) async throws -> Response {
        try await form(request) { _, _ in
            DashboardView.redirect("/dashboard/login", cookies: [DashboardCookies.header(DashboardCookies.session, "", maxAge: 0, secure: secure(request))])
        }
    }

    // MARK: Form errors

    /// A refused form's messages by field: the error's field (mapped to the form's own names)
    /// or the form as a whole.
    static func errors(_ error: any Error, fields: [String: String] = [:]) -> [String: String] {
        let failure = DashboardErrors.heraldError(from: error)
        var errors: [String: String] = [:]
        if let field = failure.details["field"] {
            let root = String(field.split(separator: ".").first ?? Substring(field))
            let name = fields[field] ?? fields[root] ?? root
            errors[name] = message(failure)
        } else {
            errors["form"] = message(failure)
        }
        return errors
    }

    /// The message without the field name the API puts in front.
    static func message(_ error: HeraldError) -> String {
        if let field = error.details["field"], error.message.hasPrefix(field + ": ") {
            let text = error.message.dropFirst(field.count + 2)
            return text.prefix(1).uppercased() + text.dropFirst()
        }
        return error.message
    }
}

extension HTTPResponse.Status {
    static var unprocessableContent: Self { .init(code: 422, reasonPhrase: "Unprocessable Content") }
}

/// The API's error mapping, used by the dashboard's pages.
typealias DashboardErrors = ErrorMiddleware<BasicRequestContext>
