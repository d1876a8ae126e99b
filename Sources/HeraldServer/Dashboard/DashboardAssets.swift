import HTTPTypes
import Hummingbird

/// The dashboard's stylesheet and script (`Assets/`, compiled into the binary like the
/// templates), served by Herald: no CDN, no build step. The script only enhances: live previews
/// as you type, the APNs auth choice, and refreshing a campaign while it sends. Every page works
/// without it.
enum DashboardAssets {
    static let css = String(decoding: PackageResources.dashboard_css, as: UTF8.self)
    static let js = String(decoding: PackageResources.dashboard_js, as: UTF8.self)

    static func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dashboard/assets/dashboard.css") { _, _ in response(css, type: "text/css; charset=utf-8") }
        router.get("/dashboard/assets/dashboard.js") { _, _ in response(js, type: "text/javascript; charset=utf-8") }
    }

    static func response(_ text: String, type: String) -> Response {
        var headers = DashboardView.securityHeaders
        headers[.contentType] = type
        headers[.cacheControl] = "public, max-age=300"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
