import Foundation
import HTTPTypes
import HeraldCore
import HeraldModels
import HeraldProviders
import HeraldServer
import HeraldStorage
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// A Herald application on a test back-end, driven through its router.
public struct TestHerald: Sendable {
    public let backend: TestBackend
    public let configuration: HeraldConfiguration
    public let services: HeraldServices
    public let databaseURL: DatabaseURL

    public static func make(
        _ backend: TestBackend,
        allowPrivateWebhooks: Bool = false,
        maxBodyBytes: Int = 1 << 20,
        trusting standIns: [TestCertificate] = [],
        apns: String? = nil,
        fcm: String? = nil,
        hms: String? = nil,
        webhookTimeout: Duration = .seconds(2),
        pingInterval: Duration = .seconds(15),
        clock: any WallClock = SystemWallClock(),
        engineWorkers: Bool = true,
        hostResolver: (any HostResolver)? = nil,
        rateLimits: RateLimits = RateLimits()
    ) async throws -> TestHerald {
        let (store, url) = try await backend.openStore()
        let folder = TestScratch.path("herald-keys").path
        var configuration = HeraldConfiguration(
            host: "127.0.0.1",
            port: 0,
            database: url,
            dataFolder: folder,
            allowPrivateWebhooks: allowPrivateWebhooks,
            maxBodyBytes: maxBodyBytes,
            logLevel: .warning
        )
        configuration.secretKey = nil
        // Provider connections go to the stand-ins, whose certificates are trusted as HERALD_CA_FILE's would be.
        var endpoints = try ProviderEndpoints(
            environment: [
                "HERALD_APNS_SANDBOX_URL": apns, "HERALD_APNS_PRODUCTION_URL": apns,
                "HERALD_FCM_URL": fcm, "HERALD_FCM_TOKEN_URL": fcm.map { $0 + "/token" },
                "HERALD_HMS_URL": hms, "HERALD_HMS_TOKEN_URL": hms.map { $0 + "/oauth2/v3/token" },
            ].compactMapValues { $0 }
        )
        endpoints.tls.additionalTrustRoots = [.certificates(standIns.map(\.certificate))]
        endpoints.webhookTimeout = webhookTimeout
        configuration.providerEndpoints = endpoints
        configuration.realtime.pingInterval = pingInterval
        configuration.engineWorkers = engineWorkers
        configuration.rateLimits = rateLimits
        if let hostResolver { configuration.hostResolver = hostResolver }
        let services = try HeraldServices(store: store, configuration: configuration, clock: clock)
        return TestHerald(backend: backend, configuration: configuration, services: services, databaseURL: url)
    }

    /// Runs `body` against the application (in-process router), then closes the database.
    public func run<T: Sendable>(_ body: @Sendable (HeraldClient) async throws -> T) async throws -> T {
        var logger = Logger(label: "herald.test")
        logger.logLevel = .warning
        let app = try await buildApplication(configuration, services: services, logger: logger)
        return try await app.test(.router) { client in
            try await body(HeraldClient(client: client))
        }
    }

    /// Runs `body` against the application listening on a real port (WebSockets need one), then
    /// shuts it down.
    public func runLive<T: Sendable>(_ body: @Sendable (HeraldClient, Int) async throws -> T) async throws -> T {
        var logger = Logger(label: "herald.test")
        logger.logLevel = .warning
        let app = try await buildApplication(configuration, services: services, logger: logger)
        return try await app.test(.live) { client in
            guard let port = client.port else { throw TestFailure("the live test server has no port") }
            return try await body(HeraldClient(client: client), port)
        }
    }

    /// A new app with its API key.
    public func makeApp(name: String = "Acme") async throws -> IssuedAPIKey {
        try await services.apps.createApp(name: name)
    }
}

/// A JSON response: status and parsed body.
public struct JSONResponse: Sendable {
    public let status: Int
    public let headers: HTTPFields
    public let text: String

    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    /// The body as a typed value, read by path: `response.body["data"]["to"]["uid"].string`
    /// (`.null` when the body is not JSON).
    public var body: JSONValue { JSONValue.parsing(Array(text.utf8)) }

    /// The body decoded as `type`, for answers read field by field.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    public var errorCode: String? { body["error"]["code"].string }
    public var errorMessage: String? { body["error"]["message"].string }
    public var errorDetails: [String: String]? { body["error"]["details"].stringObject }
    public subscript(key: String) -> Any? { json[key] }
}

/// Sends JSON requests with a bearer credential.
public struct HeraldClient: Sendable {
    let client: any TestClientProtocol

    @discardableResult
    public func request(
        _ method: HTTPRequest.Method,
        _ path: String,
        bearer: String? = nil,
        json: Any? = nil,
        raw: String? = nil,
        bytes: [UInt8]? = nil,
        headers: HTTPFields = [:]
    ) async throws -> JSONResponse {
        var headers = headers
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
        } else if let raw {
            body = ByteBuffer(string: raw)
        } else if let bytes {
            body = ByteBuffer(bytes: bytes)
        }
        if body != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: path, method: method, headers: headers, body: body) { response in
            JSONResponse(status: Int(response.status.code), headers: response.headers, text: String(buffer: response.body))
        }
    }

    /// Creates a user and logs them in; returns the session's auth token.
    public func login(_ uid: String, apiKey: String, name: String? = nil) async throws -> String {
        let put = try await request(.put, "/v1/users/\(uid)", bearer: apiKey, json: ["name": name ?? uid.capitalized])
        guard put.status == 200 else { throw TestFailure("PUT user \(uid): \(put.status) \(put.text)") }
        let session = try await request(.post, "/v1/users/\(uid)/sessions", bearer: apiKey, json: [String: Any]())
        guard session.status == 201, let token = session["authToken"] as? String else {
            throw TestFailure("POST session \(uid): \(session.status) \(session.text)")
        }
        return token
    }

    /// Adds an FCM, an APNs (token) and an HMS provider named `fcm-1`, `apns-1` and `hms-1`.
    public func addStandardProviders(apiKey: String) async throws {
        let fcm = try await request(
            .post,
            "/v1/push/providers",
            bearer: apiKey,
            json: [
                "providerId": "fcm-1", "kind": "fcm", "serviceAccount": Fixtures.serviceAccount(),
            ]
        )
        guard fcm.status == 201 else { throw TestFailure("fcm provider: \(fcm.status) \(fcm.text)") }
        let apns = try await request(
            .post,
            "/v1/push/providers",
            bearer: apiKey,
            json: [
                "providerId": "apns-1", "kind": "apns", "auth": "token", "keyId": Fixtures.apnsKeyId, "teamId": "DEF123GHIJ",
                "bundleId": "com.acme.app", "privateKey": Fixtures.apnsSigningKeyPEM(),
            ]
        )
        guard apns.status == 201 else { throw TestFailure("apns provider: \(apns.status) \(apns.text)") }
        let hms = try await request(
            .post,
            "/v1/push/providers",
            bearer: apiKey,
            json: [
                "providerId": "hms-1", "kind": "hms", "hmsAppId": "101234567", "clientSecret": "hms-client-secret",
            ]
        )
        guard hms.status == 201 else { throw TestFailure("hms provider: \(hms.status) \(hms.text)") }
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
