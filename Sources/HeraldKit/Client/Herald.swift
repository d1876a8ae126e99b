import Foundation
import HeraldModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Herald client for an app: the signed-in session, its push tokens, the notification feed
/// and campaign push tracking. One per app; safe to share between tasks.
///
/// ```swift
/// let herald = Herald(configuration: .init(serverURL: URL(string: "https://push.example.com")!, appId: "app_123"))
/// try await herald.registerPushToken(Herald.hexString(deviceToken), platform: .apnsIOSDevice, providerId: "apns-prod")  // kept until login
/// let me = try await herald.login(authToken: tokenFromYourBackend)
/// ```
public actor Herald {
    /// Where the server is and which app this is.
    public struct Configuration: Sendable {
        public var serverURL: URL
        public var appId: String

        public init(serverURL: URL, appId: String) {
            self.serverURL = serverURL
            self.appId = appId
        }
    }

    /// The signed-in session (`GET /v1/me`).
    public struct LoggedInUser: Sendable, Equatable {
        public var uid: String
        public var sessionId: String
        public var appId: String
    }

    /// A push token this client registered, or will register at login.
    public struct PushTokenRegistration: Sendable, Equatable {
        public var token: String
        public var platform: PushPlatform
        public var providerId: String
        /// True while it waits for ``Herald/login(authToken:)`` (Sendbird's "pending").
        public var isPending: Bool
        /// The key the device's pushes are sealed to when the app's content mode is `encrypted`
        /// (``HeraldPushDecryptor/registration``): its public half and auth secret, base64url.
        public var encryption: EncryptionKey?

        public struct EncryptionKey: Sendable, Equatable {
            public var p256dh: String
            public var auth: String
        }
    }

    public let configuration: Configuration
    let transport: HTTPTransport
    var authToken: String?
    /// The signed-in user, if any.
    public private(set) var loggedInUser: LoggedInUser?
    /// Receipts waiting for ``flushReceipts()``.
    var pendingReceipts: [PushReceipt] = []
    /// Tokens registered through this client for the current session (unregistered at logout).
    public private(set) var registeredTokens: [PushTokenRegistration] = []
    /// A registration made before login, sent once logged in.
    public private(set) var pendingToken: PushTokenRegistration?
    var subscribers = FeedSubscribers()
    var liveFeed: Task<Void, Never>?

    public init(configuration: Configuration) {
        self.configuration = configuration
        self.transport = HTTPTransport(baseURL: configuration.serverURL)
    }

    // MARK: Session

    /// Signs in with an auth token your backend obtained from Herald (`POST /v1/users/{uid}/sessions`);
    /// completes a pending push-token registration.
    @discardableResult
    public func login(authToken: String) async throws(HeraldKitError) -> LoggedInUser {
        let me = try await transport.send("GET", "v1/me", bearer: authToken)
        guard let uid = me["uid"]?.stringValue, let sessionId = me["sessionId"]?.stringValue, let appId = me["appId"]?.stringValue else {
            throw .invalidPayload("GET /v1/me lacks uid, sessionId or appId")
        }
        guard appId == configuration.appId else {
            throw .server(status: 403, code: "forbidden", message: "the auth token belongs to app \(appId), not \(configuration.appId)", details: [:])
        }
        self.authToken = authToken
        let user = LoggedInUser(uid: uid, sessionId: sessionId, appId: appId)
        loggedInUser = user
        if let pending = pendingToken {
            try await register(pending)
            pendingToken = nil
        }
        startLiveFeed()
        return user
    }

    /// Unregisters this session's push tokens (CometChat: "unregister push token before logout"),
    /// then ends the session on the server.
    public func logout() async throws(HeraldKitError) {
        guard let authToken else { throw .notLoggedIn }
        try await unregisterPushToken()
        stopLiveFeed()
        _ = try await transport.send("DELETE", "v1/me/session", bearer: authToken)
        self.authToken = nil
        loggedInUser = nil
    }

    // MARK: Push tokens

    /// Registers a device's push token (FCM registration token, APNs or PushKit token as hex,
    /// HMS token). Before login it is kept and registered by ``login(authToken:)``.
    @discardableResult
    /// Registers the device's token; with a `decryptor`, the device's key too, so that in the
    /// `encrypted` content mode its pushes are sealed to it (the extension opens them with the
    /// same decryptor, whose keys the app keeps in a keychain group the two share).
    public func registerPushToken(
        _ token: String,
        platform: PushPlatform,
        providerId: String,
        decryptor: HeraldPushDecryptor? = nil
    ) async throws(HeraldKitError) -> PushTokenRegistration {
        try await registerPushToken(
            token,
            platform: platform,
            providerId: providerId,
            encryption: decryptor.map { .init(p256dh: $0.registration.p256dh, auth: $0.registration.auth) }
        )
    }

    /// Registers a browser's Web Push subscription (platform `web_push`): the endpoint and keys of
    /// `PushSubscription.toJSON()`, made with the `webpush` provider's public key as
    /// `applicationServerKey`. Pending until login, like any token.
    @discardableResult
    public func registerWebPushSubscription(
        endpoint: String,
        p256dh: String,
        auth: String,
        providerId: String
    ) async throws(HeraldKitError) -> PushTokenRegistration {
        try await registerPushToken(endpoint, platform: .webPush, providerId: providerId, encryption: .init(p256dh: p256dh, auth: auth))
    }

    /// Registers a browser subscription given as `JSON.stringify(subscription)`:
    /// `{"endpoint", "expirationTime", "keys": {"p256dh", "auth"}}`.
    @discardableResult
    public func registerWebPushSubscription(json: Data, providerId: String) async throws(HeraldKitError) -> PushTokenRegistration {
        guard case .object(let object)? = try? JSONValue(jsonBytes: Array(json)), case .string(let endpoint)? = object["endpoint"],
            case .object(let keys)? = object["keys"], case .string(let p256dh)? = keys["p256dh"], case .string(let auth)? = keys["auth"]
        else { throw .invalidPayload("not a PushSubscription: it needs endpoint and keys.p256dh and keys.auth") }
        return try await registerWebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth, providerId: providerId)
    }

    /// Registers a UnifiedPush endpoint (platform `unifiedpush`) the distributor gave the app.
    /// With a `decryptor` (whose ``HeraldPushDecryptor/registration`` the connector's keys are),
    /// every push to it is sealed per RFC 8291, and ``HeraldPushDecryptor/open(_:)`` opens the
    /// message body; without one the distributor carries the JSON in the clear.
    @discardableResult
    public func registerUnifiedPushEndpoint(
        _ endpoint: String,
        providerId: String,
        decryptor: HeraldPushDecryptor? = nil
    ) async throws(HeraldKitError) -> PushTokenRegistration {
        try await registerPushToken(endpoint, platform: .unifiedPush, providerId: providerId, decryptor: decryptor)
    }

    private func registerPushToken(
        _ token: String,
        platform: PushPlatform,
        providerId: String,
        encryption: PushTokenRegistration.EncryptionKey?
    ) async throws(HeraldKitError) -> PushTokenRegistration {
        var registration = PushTokenRegistration(token: token, platform: platform, providerId: providerId, isPending: true, encryption: encryption)
        guard authToken != nil else {
            pendingToken = registration
            return registration
        }
        try await register(registration)
        registration.isPending = false
        return registration
    }

    private func register(_ registration: PushTokenRegistration) async throws(HeraldKitError) {
        guard let authToken else { throw .notLoggedIn }
        var body: JSONObject = [
            "pushToken": .string(registration.token), "platform": .string(registration.platform.rawValue),
            "providerId": .string(registration.providerId),
        ]
        if let key = registration.encryption { body["encryption"] = .object(["p256dh": .string(key.p256dh), "auth": .string(key.auth)]) }
        _ = try await transport.send("POST", "v1/me/push-tokens", bearer: authToken, body: .object(body))
        var done = registration
        done.isPending = false
        registeredTokens.removeAll { $0.token == registration.token }
        registeredTokens.append(done)
    }

    /// Unregisters every token this client registered for the session (and forgets a pending one).
    public func unregisterPushToken() async throws(HeraldKitError) {
        pendingToken = nil
        guard let authToken else { return }
        for registration in registeredTokens {
            do {
                _ = try await transport.send("DELETE", "v1/me/push-tokens/\(registration.token)", bearer: authToken)
            } catch .server(404, _, _, _) {
                // Already gone (pruned, or moved to another user).
            }
            registeredTokens.removeAll { $0.token == registration.token }
        }
    }

    /// An APNs or PushKit device token as the lower-case hex string Herald registers (Kandy).
    public static func hexString(_ token: Data) -> String {
        token.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    // MARK: Requests as the signed-in user

    func userRequest(_ method: String, _ path: String, query: [URLQueryItem] = [], body: JSONValue? = nil) async throws(HeraldKitError) -> JSONObject
    {
        guard let authToken else { throw .notLoggedIn }
        return try await transport.send(method, path, query: query, bearer: authToken, body: body)
    }
}
