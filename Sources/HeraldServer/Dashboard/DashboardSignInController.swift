import Foundation
import HTTPTypes
import HeraldCore
import Hummingbird

/// Signing in with an app's API key (a form token of its own in a short cookie, as nobody is
/// signed in yet), and signing out.
struct DashboardSignInController: Sendable {
    let dashboard: Dashboard

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dashboard/login", use: show)
        router.post("/dashboard/login", use: signIn)
        router.post("/dashboard/logout", use: signOut)
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> Response {
        loginPage(request)
    }

    @Sendable func signIn(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let services = dashboard.services
        let form = try await dashboard.readForm(request)
        let expected = DashboardCookies.value(DashboardCookies.login, in: request.headers[.cookie]) ?? ""
        guard dashboard.sameOrigin(request), let token = form.text("_csrf"), !expected.isEmpty, ConstantTime.equals(token, expected) else {
            return loginPage(request, error: "The sign-in form expired. Please try again.", status: .forbidden)
        }
        guard let key = form.text("apiKey") else { return loginPage(request, error: "Enter your app's API key.", status: .unprocessableContent) }
        let appId: String
        do {
            appId = try await services.authenticator.admin(bearer: key)
        } catch {
            return loginPage(request, error: "That API key is not valid.", status: .unauthorized)
        }
        let session = DashboardSession(
            appId: appId,
            keyHashPrefix: String(SHA256SecretHasher().hash(key).prefix(16)),
            csrf: DashboardSession.random(),
            expires: services.clock.now().addingTimeInterval(DashboardSession.lifetime)
        )
        let next = form.text("next").flatMap { $0.removingPercentEncoding }.flatMap { $0.hasPrefix("/dashboard") && !$0.hasPrefix("//") ? $0 : nil }
        let secure = dashboard.secure(request)
        return DashboardView.redirect(
            next ?? "/dashboard",
            cookies: [
                DashboardCookies.header(
                    DashboardCookies.session,
                    dashboard.cookies.seal(session),
                    maxAge: Int(DashboardSession.lifetime),
                    secure: secure
                ),
                DashboardCookies.header(DashboardCookies.login, "", maxAge: 0, secure: secure),
            ]
        )
    }

    @Sendable func signOut(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { _, _ in
            DashboardView.redirect(
                "/dashboard/login",
                cookies: [
                    DashboardCookies.header(DashboardCookies.session, "", maxAge: 0, secure: dashboard.secure(request))
                ]
            )
        }
    }

    private func loginPage(_ request: Request, error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        let token = DashboardSession.random()
        let page = LoginPage(csrf: token, error: error, next: request.uri.queryParameters.get("next") ?? "")
        var response = dashboard.view.page(page, title: "Sign in", section: "", signedIn: nil, status: status)
        response.headers.append(
            HTTPField(
                name: .setCookie,
                value: DashboardCookies.header(
                    DashboardCookies.login,
                    token,
                    maxAge: 3_600,
                    secure: dashboard.secure(request)
                )
            )
        )
        return response
    }
}
