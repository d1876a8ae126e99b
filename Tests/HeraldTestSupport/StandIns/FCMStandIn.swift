import Crypto
import Foundation
import HeraldCore
import HeraldModels
import NIOConcurrencyHelpers
import NIOSSL
import _CryptoExtras

/// A local FCM HTTP v1: the OAuth token endpoint (`POST /token`, verifies the RS256 assertion of
/// a known service account) and `POST /v1/projects/{id}/messages:send` (checks the bearer token
/// and the message as Google does, answers `google.rpc.Status` errors with FcmError details).
public final class FCMStandIn: Sendable {
    public struct Scripted: Sendable {
        public var status: Int
        public var canonical: String
        public var fcmError: String?
        public var message: String
        public var retryAfter: String?

        public init(status: Int, canonical: String, fcmError: String?, message: String, retryAfter: String? = nil) {
            self.status = status
            self.canonical = canonical
            self.fcmError = fcmError
            self.message = message
            self.retryAfter = retryAfter
        }

        public static let unregistered = Scripted(
            status: 404,
            canonical: "NOT_FOUND",
            fcmError: "UNREGISTERED",
            message: "Requested entity was not found."
        )
    }

    struct State {
        var accounts: [String: _RSA.Signing.PublicKey] = [:]  // client_email → key
        var projectId = "acme-chat-app"
        var issued: [String: Date] = [:]  // access token → expiry
        var tokenRequests = 0
        var scripted: [String: Scripted] = [:]
        var messages: [Data] = []  // accepted `message` objects, as JSON
        var revokeAllTokens = false
        var recordMessages = true
        /// Refusals, GOAWAYs and latency injected into the answers (the fault suite).
        var faults: FaultPlan?
        /// Told of every accepted message (benchmarks count them).
        var observer: (@Sendable (Data) -> Void)?
    }

    private let server: HTTP2TestServer
    private let state: NIOLockedValueBox<State>

    public var url: String { server.url }
    public var tokenURL: String { server.url + "/token" }
    public var certificate: TestCertificate { server.certificate }
    public var connections: Int { server.connections }

    /// - Parameters:
    ///   - recordMessages: keep every accepted message for inspection (off for load benchmarks).
    ///   - lean: serve HTTP/2 with the lean frame handler (load benchmarks); the same checks and answers.
    ///   - http1Only: speak HTTP/1.1 only (as some FCM-compatible servers do).
    public static func start(
        projectId: String = "acme-chat-app",
        recordMessages: Bool = true,
        lean: Bool = false,
        http1Only: Bool = false
    ) async throws -> FCMStandIn {
        let state = NIOLockedValueBox(State())
        state.withLockedValue {
            $0.projectId = projectId
            $0.recordMessages = recordMessages
        }
        let server = try await HTTP2TestServer.start(lean: lean, http1Only: http1Only) { request in
            state.withLockedValue { state in
                request.path == "/token" ? Self.token(request, &state) : Self.send(request, &state)
            }
        }
        return FCMStandIn(server: server, state: state)
    }

    private init(server: HTTP2TestServer, state: NIOLockedValueBox<State>) {
        self.server = server
        self.state = state
    }

    public func shutdown() async { await server.shutdown() }

    public func trust(clientEmail: String, publicKey: _RSA.Signing.PublicKey) {
        state.withLockedValue { $0.accounts[clientEmail] = publicKey }
    }

    public func script(token: String, _ answer: Scripted) {
        state.withLockedValue { $0.scripted[token] = answer }
    }

    /// Make every access token issued so far invalid (the next send gets 401).
    public func revokeAccessTokens() {
        state.withLockedValue { $0.issued = [:] }
    }

    /// Injects these faults into message sends from now on (nil: none): FCM's own 503
    /// `UNAVAILABLE` and 429 `QUOTA_EXCEEDED` bodies, each with `retry-after`.
    public func inject(_ faults: FaultPlan?) {
        state.withLockedValue { $0.faults = faults }
    }

    /// Calls `observer` with the body of every accepted send.
    public func observe(_ observer: @escaping @Sendable (Data) -> Void) {
        state.withLockedValue { $0.observer = observer }
    }

    /// Every accepted `message` object, as JSON (when recording).
    public var messages: [Data] { state.withLockedValue { $0.messages } }

    public var tokenRequests: Int { state.withLockedValue { $0.tokenRequests } }
    public var messageCount: Int { state.withLockedValue { $0.messages.count } }
    public var lastMessage: JSONValue? {
        state.withLockedValue { $0.messages.last }.map { JSONValue.parsing($0) }
    }

    static func oauthError(_ error: String, _ description: String) -> StandInResponse {
        StandInResponse(status: 400, json: #"{"error":"\#(error)","error_description":"\#(description)"}"#)
    }

    static func token(_ request: StandInRequest, _ state: inout State) -> StandInResponse {
        state.tokenRequests += 1
        guard request.method == "POST", request.headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") == true else {
            return oauthError("invalid_request", "Bad Request")
        }
        let form = Dictionary(
            String(decoding: request.body, as: UTF8.self).split(separator: "&").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]).removingPercentEncoding ?? "", parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? "") : "")
            },
            uniquingKeysWith: { $1 }
        )
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
            return oauthError("unsupported_grant_type", "Invalid grant_type: \(form["grant_type"] ?? "")")
        }
        guard let assertion = form["assertion"], let (header, claims, signature, signedInput) = JWTParts.split(Substring(assertion)) else {
            return oauthError("invalid_request", "Invalid JWT")
        }
        guard header["alg"].string == "RS256", let iss = claims["iss"].string, let key = state.accounts[iss] else {
            return oauthError("invalid_grant", "Invalid grant: account not found")
        }
        guard key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: signedInput, padding: .insecurePKCS1v1_5) else {
            return oauthError("invalid_grant", "Invalid JWT Signature.")
        }
        let scopes = (claims["scope"].string ?? "").split(separator: " ")
        guard
            scopes.contains("https://www.googleapis.com/auth/firebase.messaging") || scopes.contains("https://www.googleapis.com/auth/cloud-platform")
        else {
            return oauthError("invalid_scope", "Invalid OAuth scope or ID token audience provided.")
        }
        let now = Int(Date().timeIntervalSince1970)
        guard let iat = claims["iat"].int, let exp = claims["exp"].int, exp > iat, exp - iat <= 3600, abs(iat - now) < 300, exp > now else {
            return oauthError(
                "invalid_grant",
                "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."
            )
        }
        guard let aud = claims["aud"].string, aud.hasSuffix("/token") else { return oauthError("invalid_grant", "Invalid JWT audience.") }
        let token = "ya29.standin-" + UUID().uuidString
        state.issued[token] = Date().addingTimeInterval(3599)
        return StandInResponse(status: 200, json: #"{"access_token":"\#(token)","expires_in":3599,"token_type":"Bearer"}"#)
    }

    static func status(_ code: Int, _ canonical: String, _ message: String, fcmError: String? = nil, retryAfter: String? = nil) -> StandInResponse {
        var details = "[]"
        if let fcmError {
            details = #"[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#(fcmError)"}]"#
        }
        return StandInResponse(
            status: code,
            headers: retryAfter.map { ["retry-after": $0] } ?? [:],
            json: #"{"error":{"code":\#(code),"message":"\#(message)","status":"\#(canonical)","details":\#(details)}}"#
        )
    }

    static func send(_ request: StandInRequest, _ state: inout State) -> StandInResponse {
        guard request.method == "POST", request.path == "/v1/projects/\(state.projectId)/messages:send" else {
            return status(404, "NOT_FOUND", "Requested entity was not found.")
        }
        guard let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer "),
            let expiry = state.issued[String(authorization.dropFirst("Bearer ".count))], expiry > Date()
        else {
            return status(
                401,
                "UNAUTHENTICATED",
                "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."
            )
        }
        guard let message = JSONValue.parsing(request.body)["message"].object else {
            return status(400, "INVALID_ARGUMENT", "Invalid JSON payload received.")
        }
        let targets = ["token", "topic", "condition"].filter { message[$0] != nil }
        guard targets.count == 1 else {
            return status(400, "INVALID_ARGUMENT", "Recipient of the message is not set.", fcmError: "INVALID_ARGUMENT")
        }
        if let data = message["data"]?.object {
            for (index, (key, value)) in data.enumerated() {
                guard value.string != nil else {
                    return status(
                        400,
                        "INVALID_ARGUMENT",
                        "Invalid value at 'message.data[\(index)].value' (TYPE_STRING), 12",
                        fcmError: "INVALID_ARGUMENT"
                    )
                }
                if key == "from" || key == "gcm" || key.hasPrefix("google") {
                    return status(400, "INVALID_ARGUMENT", "Invalid data key: \(key)", fcmError: "INVALID_ARGUMENT")
                }
            }
        }
        // The v1 API reads enums by their names: AndroidMessagePriority is NORMAL or HIGH.
        if let android = message["android"]?.object, let priority = android["priority"], !["NORMAL", "HIGH"].contains(priority.string ?? "") {
            return status(
                400,
                "INVALID_ARGUMENT",
                "Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), \"\(priority.text)\"",
                fcmError: "INVALID_ARGUMENT"
            )
        }
        guard request.body.count <= 4096 + 200 else { return status(400, "INVALID_ARGUMENT", "Request contains an invalid argument.") }
        let token = message["token"]?.string ?? ""
        let fault = state.faults?.decide(key: token)
        if let fault, let code = fault.refusal {
            var refused =
                code == 503
                ? status(
                    503,
                    "UNAVAILABLE",
                    "The service is currently unavailable.",
                    fcmError: "UNAVAILABLE",
                    retryAfter: String(fault.retryAfterSeconds)
                )
                : status(
                    429,
                    "RESOURCE_EXHAUSTED",
                    "Quota exceeded for quota metric 'Send requests'.",
                    fcmError: "QUOTA_EXCEEDED",
                    retryAfter: String(fault.retryAfterSeconds)
                )
            refused.goAway = fault.goAway
            refused.gracefully = true
            refused.delay = fault.delay
            return refused
        }
        if let scripted = state.scripted[token] {
            return status(scripted.status, scripted.canonical, scripted.message, fcmError: scripted.fcmError, retryAfter: scripted.retryAfter)
        }
        if state.recordMessages { state.messages.append(Data(JSONValue.object(message).jsonBytes())) }
        state.faults?.accepted(key: token)
        state.observer?(request.body)
        var answer = StandInResponse(
            status: 200,
            json: #"{"name":"projects/\#(state.projectId)/messages/\#(Identifier.uuid())"}"#,
            goAway: fault?.goAway ?? false,
            delay: fault?.delay
        )
        answer.gracefully = true
        return answer
    }
}
