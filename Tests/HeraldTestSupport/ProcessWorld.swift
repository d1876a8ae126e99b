import Crypto
import Foundation
import HeraldModels
import NIOCore
import NIOHTTP1
import _CryptoExtras

/// Stand-ins for APNs, FCM and a webhook, a database, and the environment that points `herald`
/// processes at them: for the suites that start, kill and watch real processes.
public final class ProcessWorld: Sendable {
    public let apns: APNsStandIn
    public let fcm: FCMStandIn
    public let hook: WebhookStandIn
    public let environment: [String: String]
    public let apiKey: String

    /// Which scale a suite runs at: `HERALD_SUITE_SCALE=full` for the documented full-size run,
    /// else the reduced size that fits CI.
    public static var fullSize: Bool { ProcessInfo.processInfo.environment["HERALD_SUITE_SCALE"] == "full" }

    /// - Parameter record: keep every request the APNs and FCM stand-ins accept (`received`, `messages`).
    public static func make(_ backend: TestBackend, name: String, record: Bool = false, extra: [String: String] = [:]) async throws -> ProcessWorld {
        let apns = try await APNsStandIn.start(recordRequests: record)
        let fcm = try await FCMStandIn.start(recordMessages: record)
        let hook = try await WebhookStandIn()
        let key = P256.Signing.PrivateKey()
        apns.trust(keyId: Fixtures.apnsKeyId, publicKey: key.publicKey)
        fcm.trust(
            clientEmail: Fixtures.serviceAccount()["client_email"] as! String,
            publicKey: try _RSA.Signing.PrivateKey(pemRepresentation: Fixtures.rsaKeyPEM).publicKey
        )
        // One CA file that trusts all three stand-ins.
        var pem = ""
        for certificate in [apns.certificate, fcm.certificate, hook.server.certificate] {
            pem += try String(contentsOf: certificate.writePEM(), encoding: .utf8)
        }
        let caFile = TestScratch.path("herald-ca", suffix: ".pem")
        try pem.write(to: caFile, atomically: true, encoding: .utf8)
        let database: String =
            switch backend {
            case .sqlite:
                "sqlite://" + TestScratch.path("herald-\(name)").appendingPathComponent("herald.sqlite").path
            case .postgres: try await TestBackend.createPostgresDatabase()
            }
        let environment = [
            "HERALD_DATABASE_URL": database, "HERALD_SECRET_KEY": String(repeating: "cd", count: 32), "HERALD_LOG_LEVEL": "error",
            "HERALD_APNS_SANDBOX_URL": apns.endpointURL, "HERALD_FCM_URL": fcm.url, "HERALD_FCM_TOKEN_URL": fcm.tokenURL,
            "HERALD_CA_FILE": caFile.path, "HERALD_WEBHOOK_ALLOW_PRIVATE": "1", "HERALD_ENGINE_LEASE_SECONDS": "3",
            // The suites drive load through one key; the limits are tested on their own.
            "HERALD_RATE_LIMIT": "0", "HERALD_USER_RATE_LIMIT": "0",
        ].merging(extra) { $1 }
        let created = try HeraldProcess.run(["apps", "create", "--name", name, "--json"], environment: environment)
        guard let apiKey = try JSONValue(jsonText: created)["apiKey"].string else {
            throw TestFailure("apps create printed \(created)")
        }
        return ProcessWorld(apns: apns, fcm: fcm, hook: hook, environment: environment, apiKey: apiKey, apnsKeyPEM: key.pemRepresentation)
    }

    /// The .p8 (PEM) the APNs stand-in trusts for key id `Fixtures.apnsKeyId`, team DEF123GHIJ.
    public let apnsKeyPEM: String

    private init(apns: APNsStandIn, fcm: FCMStandIn, hook: WebhookStandIn, environment: [String: String], apiKey: String, apnsKeyPEM: String) {
        self.apnsKeyPEM = apnsKeyPEM
        self.apns = apns
        self.fcm = fcm
        self.hook = hook
        self.environment = environment
        self.apiKey = apiKey
    }

    public func close() async {
        await apns.shutdown()
        await fcm.shutdown()
        await hook.shutdown()
    }

    /// Every push the stand-ins accepted, as "device token|notification": the message id (`tag`)
    /// of a chat push, `campaign` for a campaign's push.
    public func acceptedPushes() -> [String] {
        let apnsPushes = apns.received.compactMap { request -> String? in
            Self.notification(in: request.body).map { String(request.path.dropFirst("/3/device/".count)) + "|" + $0 }
        }
        let fcmPushes = fcm.messages.compactMap { message -> String? in
            guard let token = JSONValue.parsing(message)["token"].string else { return nil }
            return Self.notification(in: message).map { token + "|" + $0 }
        }
        return apnsPushes + fcmPushes
    }

    static func notification(in body: Data) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        if text.contains("notificationId") { return "campaign" }
        guard let range = text.range(of: #"\\?"tag\\?"\s*:\s*\\?"([^"\\]+)"#, options: .regularExpression) else { return nil }
        let match = text[range]
        return match.split(separator: ":").last.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\\\" ")) }
    }

    public func call(
        _ process: HeraldProcess,
        _ method: HTTPMethod,
        _ path: String,
        bearer: String? = nil,
        _ body: Any? = nil
    ) async throws -> JSONResponse {
        try await HTTPTestClient.shared.request(method, process.url + path, bearer: bearer ?? apiKey, json: body)
    }

    /// The APNs and FCM providers (`apns-1`, `fcm-1`) and, with `webhook`, the custom one (`hook-1`).
    public func addProviders(_ process: HeraldProcess, webhook: Bool = false) async throws {
        var bodies: [[String: Any]] = [
            [
                "providerId": "apns-1", "kind": "apns", "auth": "token", "keyId": Fixtures.apnsKeyId, "teamId": "DEF123GHIJ",
                "bundleId": "com.acme.app", "privateKey": apnsKeyPEM,
            ],
            ["providerId": "fcm-1", "kind": "fcm", "serviceAccount": Fixtures.serviceAccount()],
        ]
        if webhook { bodies.append(["providerId": "hook-1", "kind": "custom", "url": hook.url + "/push"]) }
        for body in bodies {
            let created = try await call(process, .POST, "/v1/push/providers", body)
            guard created.status == 201 else { throw TestFailure("provider: \(created.status) \(created.text)") }
        }
    }

    /// Users `u0000`…, each with one device: even ones an iPhone (APNs), odd ones an Android
    /// phone (FCM). Returns each user's device token.
    public func addUsers(_ process: HeraldProcess, count: Int) async throws -> [String: String] {
        let uids = (0..<count).map { String(format: "u%04d", $0) }
        for start in stride(from: 0, to: uids.count, by: 1_000) {
            let batch = try await call(
                process,
                .POST,
                "/v1/users/batch",
                ["users": uids[start..<min(start + 1_000, uids.count)].map { ["uid": $0, "name": $0] }]
            )
            guard batch.status < 300 else { throw TestFailure("users: \(batch.text)") }
        }
        let url = process.url
        let apiKey = self.apiKey
        return try await withThrowingTaskGroup(of: (String, String).self) { group in
            var tokens: [String: String] = [:]
            for (index, uid) in uids.enumerated() {
                // 32 registrations at a time.
                if index >= 32, let (uid, token) = try await group.next() { tokens[uid] = token }
                group.addTask {
                    let session = try await HTTPTestClient.shared.request(
                        .POST,
                        url + "/v1/users/\(uid)/sessions",
                        bearer: apiKey,
                        json: [String: Any]()
                    )
                    let iPhone = index % 2 == 0
                    let token = iPhone ? Fixtures.apnsToken() : Fixtures.fcmToken()
                    let registered = try await HTTPTestClient.shared.request(
                        .POST,
                        url + "/v1/me/push-tokens",
                        bearer: session["authToken"] as? String,
                        json: [
                            "pushToken": token, "platform": iPhone ? "apns_ios_device" : "fcm_android", "providerId": iPhone ? "apns-1" : "fcm-1",
                        ]
                    )
                    guard registered.status == 200 else { throw TestFailure(registered.text) }
                    return (uid, token)
                }
            }
            return try await group.reduce(into: tokens) { $0[$1.0] = $1.1 }
        }
    }
}
