import Foundation
import HeraldAPI
import HeraldCore

/// Implements the generated `APIProtocol`: each operation authenticates, maps generated types to
/// Core types, calls one use case and maps the result back. Errors are thrown as `HeraldError`
/// and rendered by ``ErrorMiddleware``; generated types never travel inward.
struct APIHandler: APIProtocol {
    let services: HeraldServices

    init(services: HeraldServices) {
        self.services = services
    }

    /// The calling app's id; the route needs an app API key.
    func adminAppId() async throws -> String {
        try await services.authenticator.admin(bearer: RequestCredentials.bearer, expectedAppId: RequestCredentials.appHeader)
    }

    /// The calling session; the route needs a user auth token.
    func userSession() async throws -> Session {
        try await services.authenticator.user(bearer: RequestCredentials.bearer)
    }

    // MARK: Operations

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: "ok"))))
    }

    func getReady(_ input: Operations.GetReady.Input) async throws -> Operations.GetReady.Output {
        guard await services.store.ping() else {
            throw HeraldError(.unavailable, code: "database_unavailable", "the database does not answer")
        }
        return .ok(.init(body: .json(.init(status: "ready", database: "ok"))))
    }
}
