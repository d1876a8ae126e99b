import HeraldCore

/// A signed-in request: the session and its app.
struct DashboardSignedIn: Sendable {
    let session: DashboardSession
    let app: App
}
