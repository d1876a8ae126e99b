import Crypto
import Foundation
import HeraldCore
import HeraldModels
import HeraldServer
import _CryptoExtras

/// A Herald with its providers aimed at stand-ins (APNs, FCM, a webhook), one app with
/// `apns-1`, `fcm-1` (and `hook-1` when asked), and helpers to make devices, post events and run
/// the engine by hand.
public struct EngineWorld: Sendable {
    public let herald: TestHerald
    public let apns: APNsStandIn
    public let fcm: FCMStandIn
    public let hook: WebhookStandIn
    public let apiKey: String
    public let appId: String
    public let clock: ManualClock

    /// - Parameter workers: run the engine's background workers (then wait for outcomes instead of draining).
    public static func make(
        _ backend: TestBackend,
        clock: ManualClock = ManualClock(),
        pingInterval: Duration = .seconds(15),
        workers: Bool = false
    ) async throws -> EngineWorld {
        let apns = try await APNsStandIn.start()
        let fcm = try await FCMStandIn.start()
        let hook = try await WebhookStandIn()
        let herald = try await TestHerald.make(
            backend,
            allowPrivateWebhooks: true,
            trusting: [apns.certificate, fcm.certificate, hook.server.certificate],
            apns: apns.endpointURL,
            fcm: fcm.url,
            webhookTimeout: .seconds(15),
            pingInterval: pingInterval,
            clock: clock,
            engineWorkers: workers
        )
        let app = try await herald.makeApp()
        let key = P256.Signing.PrivateKey()
        apns.trust(keyId: Fixtures.apnsKeyId, publicKey: key.publicKey)
        fcm.trust(
            clientEmail: Fixtures.serviceAccount()["client_email"] as! String,
            publicKey: try _RSA.Signing.PrivateKey(pemRepresentation: Fixtures.rsaKeyPEM).publicKey
        )
        let world = EngineWorld(herald: herald, apns: apns, fcm: fcm, hook: hook, apiKey: app.apiKey, appId: app.appId, clock: clock)
        try await world.addProvider([
            "providerId": "apns-1", "kind": "apns", "auth": "token", "keyId": Fixtures.apnsKeyId, "teamId": "DEF123GHIJ",
            "bundleId": "com.acme.app", "privateKey": key.pemRepresentation, "mutableContent": true,
        ])
        try await world.addProvider([
            "providerId": "fcm-1", "kind": "fcm", "serviceAccount": Fixtures.serviceAccount(), "includeNotificationKey": true,
        ])
        return world
    }

    func addProvider(_ body: [String: Any]) async throws {
        let input = ProviderInputs.from(body)
        _ = try await herald.services.providers.create(appId: appId, input)
    }

    /// Adds the webhook provider `hook-1`.
    public func addWebhook() async throws {
        try await addProvider(["providerId": "hook-1", "kind": "custom", "url": hook.url + "/push"])
    }

    public func close() async {
        await apns.shutdown()
        await fcm.shutdown()
        await hook.shutdown()
    }

    /// Makes the user if needed and logs in a device with one token of `platform`; returns the
    /// session's auth token and the push token.
    @discardableResult
    public func device(
        _ client: HeraldClient,
        _ uid: String,
        _ platform: String,
        name: String? = nil,
        locale: String? = nil,
        session: String? = nil
    ) async throws -> (session: String, token: String) {
        var user: [String: Any] = ["name": name ?? uid.capitalized]
        if let locale { user["locale"] = locale }
        if session == nil {
            let put = try await client.request(.put, "/v1/users/\(uid)", bearer: apiKey, json: user)
            guard put.status == 200 else { throw TestFailure("user \(uid): \(put.text)") }
        }
        var sessionToken = session
        if sessionToken == nil {
            let created = try await client.request(.post, "/v1/users/\(uid)/sessions", bearer: apiKey, json: [String: Any]())
            sessionToken = created["authToken"] as? String
        }
        guard let sessionToken else { throw TestFailure("no session for \(uid)") }
        let token = platform.hasPrefix("apns") ? Fixtures.apnsToken() : Fixtures.fcmToken()
        let registered = try await client.request(
            .post,
            "/v1/me/push-tokens",
            bearer: sessionToken,
            json: [
                "pushToken": token, "platform": platform, "providerId": platform.hasPrefix("apns") ? "apns-1" : "fcm-1",
            ]
        )
        guard registered.status == 200 else { throw TestFailure("token: \(registered.text)") }
        return (sessionToken, token)
    }

    /// Posts events; returns their ids.
    @discardableResult
    public func post(_ client: HeraldClient, _ body: [String: Any]) async throws -> [String] {
        let response = try await client.request(.post, "/v1/events", bearer: apiKey, json: body)
        guard response.status == 202, let ids = response["eventIds"] as? [String] else {
            throw TestFailure("post: \(response.status) \(response.text)")
        }
        return ids
    }

    /// Runs the engine until nothing is left to do now (the world's clock's now).
    @discardableResult
    public func drain() async throws -> Int {
        try await herald.services.engine.drain(now: clock.now())
    }

    /// `GET /v1/events/{id}`.
    public func log(_ client: HeraldClient, _ eventId: String) async throws -> JSONResponse {
        try await client.request(.get, "/v1/events/\(eventId)?limit=1000", bearer: apiKey)
    }

    /// The deliveries of an event, as the log lists them.
    public func deliveries(_ client: HeraldClient, _ eventId: String) async throws -> [[String: Any]] {
        try await log(client, eventId)["deliveries"] as? [[String: Any]] ?? []
    }

    /// The APNs payloads received for a device token.
    public func apnsPayloads(to token: String) -> [(headers: [String: String], payload: JSONValue)] {
        apns.received.filter { $0.path == "/3/device/" + token }.compactMap { received in
            let payload = JSONValue.parsing(received.body)
            return payload.object == nil ? nil : (received.headers, payload)
        }
    }

    /// The APNs payloads received for a device token as Foundation objects, the form a device's
    /// `userInfo` has and HeraldKit's `PushNotification` reads.
    public func apnsUserInfos(to token: String) -> [[String: Any]] {
        apns.received.filter { $0.path == "/3/device/" + token }.compactMap { received in
            try? JSONSerialization.jsonObject(with: received.body) as? [String: Any]
        }
    }

    /// A message event from `sender` to user `receiver`.
    public static func message(
        from sender: String,
        to receiver: String,
        text: String = "Hello!",
        id: Int = Int.random(in: 1...1_000_000),
        receiverType: String = "user",
        extra: [String: Any] = [:]
    ) -> [String: Any] {
        var message: [String: Any] = ["id": id, "text": text, "sender": sender, "receiver": receiver, "receiverType": receiverType]
        message.merge(extra) { $1 }
        return ["type": "message", "message": message]
    }
}

/// The API's provider bodies as Core's input (the engine tests add providers directly).
enum ProviderInputs {
    static func from(_ body: [String: Any]) -> ProviderInput {
        var input = ProviderInput()
        input.providerId = body["providerId"] as? String
        input.kind = body["kind"] as? String
        input.auth = body["auth"] as? String
        input.keyId = body["keyId"] as? String
        input.teamId = body["teamId"] as? String
        input.bundleId = body["bundleId"] as? String
        input.privateKey = body["privateKey"] as? String
        input.mutableContent = body["mutableContent"] as? Bool
        input.includeNotificationKey = body["includeNotificationKey"] as? Bool
        input.url = body["url"] as? String
        input.subject = body["subject"] as? String
        input.vapidPrivateKey = body["vapidPrivateKey"] as? String
        if let account = body["serviceAccount"] {
            input.serviceAccountJSON = String(decoding: try! JSONSerialization.data(withJSONObject: account), as: UTF8.self)
        }
        return input
    }
}

extension EngineWorld {
    /// A world for the length of `body`, closed afterwards whether the body returns or throws (a
    /// test that fails half-way leaves no stand-in running).
    public static func with<T: Sendable>(
        _ backend: TestBackend,
        clock: ManualClock = ManualClock(),
        pingInterval: Duration = .seconds(15),
        workers: Bool = false,
        _ body: (EngineWorld) async throws -> T
    ) async throws -> T {
        let world = try await make(backend, clock: clock, pingInterval: pingInterval, workers: workers)
        do {
            let value = try await body(world)
            await world.close()
            return value
        } catch {
            await world.close()
            throw error
        }
    }
}
