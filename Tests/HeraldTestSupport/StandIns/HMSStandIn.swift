import Foundation
import HeraldModels
import NIOConcurrencyHelpers

/// A local Huawei Push Kit (API v1): the OAuth endpoint (`POST /oauth2/v3/token`, client
/// credentials of known apps) and `POST /v1/{appId}/messages:send`, checking the bearer token
/// and the message as Push Kit does (a token list of 1 to 1,000, `data` a string, a click action
/// on notifications, the size limit) and answering its `{"code","msg","requestId"}` bodies.
public final class HMSStandIn: Sendable {
    /// An answer to force for one device token.
    public struct Scripted: Sendable {
        public var status: Int
        public var code: String
        public var msg: String
        public var retryAfter: String?

        public init(status: Int, code: String, msg: String, retryAfter: String? = nil) {
            self.status = status
            self.code = code
            self.msg = msg
            self.retryAfter = retryAfter
        }

        public static let invalidToken = Scripted(status: 200, code: "80300007", msg: "All the tokens are invalid")
        public static let busy = Scripted(status: 503, code: "81000001", msg: "System inner error", retryAfter: "9")
    }

    struct State {
        var apps: [String: String] = [:]  // app id → client secret
        var issued: [String: (appId: String, expiry: Date)] = [:]
        var tokenRequests = 0
        var scripted: [String: Scripted] = [:]
        var messages: [Data] = []  // accepted `message` objects
    }

    private let server: HTTP2TestServer
    private let state: NIOLockedValueBox<State>

    public var url: String { server.url }
    public var tokenURL: String { server.url + "/oauth2/v3/token" }
    public var certificate: TestCertificate { server.certificate }

    public static func start() async throws -> HMSStandIn {
        let state = NIOLockedValueBox(State())
        let server = try await HTTP2TestServer.start { request in
            state.withLockedValue { state in
                request.path == "/oauth2/v3/token" ? Self.token(request, &state) : Self.send(request, &state)
            }
        }
        return HMSStandIn(server: server, state: state)
    }

    private init(server: HTTP2TestServer, state: NIOLockedValueBox<State>) {
        self.server = server
        self.state = state
    }

    public func shutdown() async { await server.shutdown() }

    public func register(appId: String, clientSecret: String) {
        state.withLockedValue { $0.apps[appId] = clientSecret }
    }

    public func script(token: String, _ answer: Scripted) {
        state.withLockedValue { $0.scripted[token] = answer }
    }

    /// Every access token issued so far expires now (the next send gets 80200003).
    public func expireAccessTokens() {
        state.withLockedValue { state in
            for key in state.issued.keys { state.issued[key]?.expiry = .distantPast }
        }
    }

    public var tokenRequests: Int { state.withLockedValue { $0.tokenRequests } }
    public var messageCount: Int { state.withLockedValue { $0.messages.count } }
    public var lastMessage: JSONValue? {
        state.withLockedValue { $0.messages.last }.map { JSONValue.parsing($0) }
    }

    static func answer(_ status: Int, _ code: String, _ msg: String, retryAfter: String? = nil) -> StandInResponse {
        StandInResponse(
            status: status,
            headers: retryAfter.map { ["retry-after": $0] } ?? [:],
            json:
                #"{"code":"\#(code)","msg":"\#(msg.replacingOccurrences(of: "\"", with: "\\\""))","requestId":"\#(UInt64.random(in: 1_000_000_000...9_999_999_999))"}"#
        )
    }

    static func token(_ request: StandInRequest, _ state: inout State) -> StandInResponse {
        state.tokenRequests += 1
        let oauthError = { (error: Int, description: String) in
            StandInResponse(status: 400, json: #"{"error":\#(error),"sub_error":20001,"error_description":"\#(description)"}"#)
        }
        guard request.method == "POST", request.headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") == true else {
            return oauthError(1101, "invalid request")
        }
        let form = Dictionary(
            String(decoding: request.body, as: UTF8.self).split(separator: "&").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]).removingPercentEncoding ?? "", parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? "") : "")
            },
            uniquingKeysWith: { $1 }
        )
        guard form["grant_type"] == "client_credentials" else { return oauthError(1101, "invalid grant_type") }
        guard let clientId = form["client_id"], let secret = state.apps[clientId] else { return oauthError(1102, "invalid client id") }
        guard form["client_secret"] == secret else { return oauthError(1105, "invalid client secret") }
        let token = "CgB6e3x9" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        state.issued[token] = (clientId, Date().addingTimeInterval(3600))
        return StandInResponse(status: 200, json: #"{"access_token":"\#(token)","expires_in":3600,"token_type":"Bearer"}"#)
    }

    static func send(_ request: StandInRequest, _ state: inout State) -> StandInResponse {
        let parts = request.path.split(separator: "/")
        guard request.method == "POST", parts.count == 3, parts[0] == "v1", parts[2] == "messages:send" else {
            return answer(404, "80100001", "Service not found")
        }
        let appId = String(parts[1])
        guard let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer "),
            let issued = state.issued[String(authorization.dropFirst("Bearer ".count))], issued.appId == appId
        else {
            return answer(401, "80200001", "Oauth authentication error")
        }
        guard issued.expiry > Date() else { return answer(401, "80200003", "Oauth Token expired") }
        guard let message = JSONValue.parsing(request.body)["message"].object else {
            return answer(400, "80100003", "Incorrect message structure")
        }
        guard let tokens = message["token"]?.strings, (1...1000).contains(tokens.count), tokens.allSatisfy({ !$0.isEmpty }) else {
            return answer(400, "80300010", "The number of tokens in the message body exceeds the default value")
        }
        if let data = message["data"], data.string == nil {
            return answer(400, "80100003", "Incorrect message structure: data must be a string")
        }
        if let android = message["android"]?.object {
            if let urgency = android["urgency"]?.string, !["HIGH", "NORMAL"].contains(urgency) {
                return answer(400, "80100001", "Some request parameters are incorrect: urgency")
            }
            if let notification = android["notification"]?.object {
                guard let type = notification["click_action"]?["type"].int, (1...4).contains(type) else {
                    return answer(400, "80100003", "Incorrect message structure: click_action is required")
                }
            }
        }
        guard request.body.count <= 4096 + 200 else { return answer(400, "80300008", "The message body size exceeds the default value") }
        if tokens.count == 1, let scripted = state.scripted[tokens[0]] {
            return answer(scripted.status, scripted.code, scripted.msg, retryAfter: scripted.retryAfter)
        }
        state.messages.append(Data(JSONValue.object(message).jsonBytes()))
        return answer(200, "80000000", "Success")
    }
}
