import Foundation
import HTTPTypes
import HeraldTestSupport
import Testing

@Suite("Operations")
struct OperationsTests {
    @Test(arguments: TestBackend.available)
    func healthReadySpecAndMetrics(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        try await herald.run { client in
            let health = try await client.request(.get, "/health")
            #expect(health.status == 200)
            #expect(health["status"] as? String == "ok")

            let ready = try await client.request(.get, "/ready")
            #expect(ready.status == 200)
            #expect(ready["database"] as? String == "ok")

            let spec = try await client.request(.get, "/openapi.yaml")
            #expect(spec.status == 200)
            #expect(spec.text.hasPrefix("openapi: 3.1.0"))
            #expect(spec.text.contains("/v1/me/push-tokens:"))

            let metrics = try await client.request(.get, "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.text.contains("hb_requests"))
            #expect(metrics.text.contains("http_server_request_duration"))
        }
    }

    @Test(arguments: TestBackend.available)
    func unknownRoutesAndMissingCredentialsAreStructured(_ backend: TestBackend) async throws {
        let herald = try await TestHerald.make(backend)
        try await herald.run { client in
            let unknown = try await client.request(.get, "/v1/nothing-here")
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "not_found")

            let anonymous = try await client.request(.get, "/v1/users/ana")
            #expect(anonymous.status == 401)
            #expect(anonymous.errorCode == "unauthorized")
            #expect(anonymous.headers[.wwwAuthenticate] == "Bearer")

            let forged = try await client.request(.get, "/v1/users/ana", bearer: "hk_not-a-real-key")
            #expect(forged.status == 401)
            let garbage = try await client.request(.get, "/v1/me", bearer: "garbage")
            #expect(garbage.status == 401)
        }
    }
}
