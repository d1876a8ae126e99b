import Foundation
import HTTPTypes
import HeraldCore
import HeraldModels
import Hummingbird
import Logging

/// The dashboard served at `/dashboard`: server-rendered pages over the same use cases as the
/// API. Signing in with an app API key gives a signed, HTTP-only session cookie; every form
/// carries the session's token (CSRF) and every POST is checked against it and its origin.
///
/// This is what the controllers share (services, the view, the session checks); each section of
/// the dashboard is a controller whose `addRoutes(to:)` maps its paths to its handler methods.
struct Dashboard: Sendable {
    let services: HeraldServices
    let view: DashboardView
    let cookies: DashboardCookies
    /// Largest form accepted (uploads of credentials and card JSON are small).
    static let maxFormBytes = 1 << 20

    init(services: HeraldServices, logger: Logger = Logger(label: "herald.dashboard")) throws {
        self.services = services
        self.view = try DashboardView(logger: logger)
        self.cookies = DashboardCookies(key: services.dashboardKey)
    }

    static func register(on router: Router<BasicRequestContext>, services: HeraldServices) throws {
        let dashboard = try Dashboard(services: services)
        DashboardAssets.addRoutes(to: router)
        DashboardSignInController(dashboard: dashboard).addRoutes(to: router)
        DashboardOverviewController(dashboard: dashboard).addRoutes(to: router)
        DashboardSettingsController(dashboard: dashboard).addRoutes(to: router)
        DashboardProvidersController(dashboard: dashboard).addRoutes(to: router)
        DashboardTemplatesController(dashboard: dashboard).addRoutes(to: router)
        DashboardUsersController(dashboard: dashboard).addRoutes(to: router)
        DashboardEventsController(dashboard: dashboard).addRoutes(to: router)
        DashboardFeedController(dashboard: dashboard).addRoutes(to: router)
        DashboardCampaignsController(dashboard: dashboard).addRoutes(to: router)
    }

    // MARK: Sessions

    /// The signed-in session of a request, if its cookie is valid and its API key still works.
    func signedIn(_ request: Request) async throws -> DashboardSignedIn? {
        guard let value = DashboardCookies.value(DashboardCookies.session, in: request.headers[.cookie]),
            let session = cookies.open(value, now: services.clock.now())
        else { return nil }
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
            return view.page(
                ErrorPage(code: failure.code, message: failure.message),
                title: "Error",
                section: "",
                signedIn: signedIn,
                status: DashboardErrors.status(of: failure.kind)
            )
        }
    }

    /// A form POST by a signed-in user: the body parsed, the form token and origin checked.
    func form(_ request: Request, _ body: (DashboardSignedIn, DashboardForm) async throws -> Response) async throws -> Response {
        try await page(request) { signedIn in
            let form = try await readForm(request)
            guard sameOrigin(request), let token = form.text("_csrf"), ConstantTime.equals(token, signedIn.session.csrf) else {
                throw HeraldError(
                    .forbidden,
                    code: "csrf",
                    "the form is out of date or did not come from this dashboard; reload the page and try again"
                )
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
