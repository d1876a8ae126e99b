import Foundation
import HeraldCore
import HTTPTypes
import Hummingbird
import Mustache

/// Renders dashboard pages: a page's own template inside the layout (navigation, sign-out),
/// with the session's form token, as HTML with a strict content-security policy.
struct DashboardView: Sendable {
    let library: MustacheLibrary

    init() throws {
        self.library = try DashboardTemplate.library()
    }

    struct NavItem {
        let path: String
        let label: String
    }

    static let navigation = [
        NavItem(path: "/dashboard", label: "Overview"),
        NavItem(path: "/dashboard/settings", label: "Push settings"),
        NavItem(path: "/dashboard/providers", label: "Providers"),
        NavItem(path: "/dashboard/templates", label: "Templates"),
        NavItem(path: "/dashboard/users", label: "Users"),
        NavItem(path: "/dashboard/events", label: "Events"),
        NavItem(path: "/dashboard/feed", label: "Feed"),
    ]

    /// A whole page: `template` rendered with `context` inside the layout.
    func page(_ template: String, title: String, section: String, context: [String: Any], signedIn: DashboardSignedIn?,
              status: HTTPResponse.Status = .ok, notice: String? = nil) -> Response {
        var context = DashboardContext.normalized(context)
        if let signedIn { context["csrf"] = signedIn.session.csrf }
        let content = library.render(context, withTemplate: template) ?? ""
        var layout: [String: Any] = ["title": title, "content": content]
        if let notice { layout["notice"] = notice }
        if let signedIn {
            layout["appName"] = signedIn.app.name
            layout["appId"] = signedIn.app.id
            layout["csrf"] = signedIn.session.csrf
            layout["nav"] = Self.navigation.map { item -> [String: Any] in
                ["path": item.path, "label": item.label, "current": item.path == section]
            }
        }
        return Self.html(library.render(DashboardContext.normalized(layout), withTemplate: "layout") ?? "", status: status)
    }

    /// A template on its own (a fragment fetched by the page's script).
    func fragment(_ template: String, context: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        Self.html(library.render(DashboardContext.normalized(context), withTemplate: template) ?? "", status: status)
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static var securityHeaders: HTTPFields {
        var headers = HTTPFields()
        // Scripts and styles come from Herald only; card images may be anywhere on HTTPS.
        headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; "
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

/// A signed-in request: the session and its app.
struct DashboardSignedIn: Sendable {
    let session: DashboardSession
    let app: App
}

/// Formatting shared by the pages.
enum DashboardFormat {
    /// `2026-11-23 06:30:57` (a value type: one for every row of every page).
    private static let timestamp = Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeSeparator: .colon,
                                                            timeZone: TimeZone(identifier: "UTC")!)
        .year().month().day().time(includingFractionalSeconds: false)

    static func date(_ date: Date?) -> String {
        guard let date else { return "—" }
        return date.formatted(timestamp) + " UTC"
    }

    /// A formatter of UTC times in a fixed pattern.
    static func utc(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter
    }

    /// What `<input type="datetime-local">` sends, read as UTC.
    static func parseLocalInput(_ text: String) -> Date? {
        ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"].lazy.compactMap { utc($0).date(from: text) }.first
    }
}
