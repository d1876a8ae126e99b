import AsyncHTTPClient
import Foundation
import HeraldCore
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// OAuth 2.0 access tokens of one credential (an FCM service account, an HMS app): cached,
/// refreshed five minutes before they expire, one refresh at a time however many sends wait, and
/// dropped when the provider answers 401. How a token is obtained is the provider's `fetch`.
public actor OAuthAccessTokens {
    public struct Token: Sendable, Equatable {
        public let value: String
        public let expiresAt: Date

        public init(value: String, expiresAt: Date) {
            self.value = value
            self.expiresAt = expiresAt
        }
    }

    private let fetchToken: @Sendable (Date) async throws -> Token
    private let clock: any WallClock
    private var current: Token?
    private var refreshing: Task<Token, any Error>?
    /// How many tokens were asked of the token endpoint.
    public private(set) var fetches = 0

    public static let refreshMargin: TimeInterval = 5 * 60

    /// - Parameter fetch: asks the token endpoint for a token, given the time now.
    public init(clock: any WallClock = SystemWallClock(), fetch: @escaping @Sendable (Date) async throws -> Token) {
        self.fetchToken = fetch
        self.clock = clock
    }

    public func token() async throws -> Token {
        if let current, current.expiresAt.timeIntervalSince(clock.now()) > Self.refreshMargin { return current }
        if let refreshing { return try await refreshing.value }
        fetches += 1
        let fetchToken = fetchToken
        let now = clock.now()
        let task = Task { try await fetchToken(now) }
        refreshing = task
        defer { refreshing = nil }
        let token = try await task.value
        current = token
        return token
    }

    /// The provider refused `token` (401): forget it unless it was already replaced.
    public func invalidate(_ token: Token) {
        if current == token { current = nil }
    }

    /// POSTs a form to a token endpoint and reads RFC 6749's answer (`access_token`, `expires_in`;
    /// or `error`, `error_description`, where HMS's `error` is a number).
    public static func requestToken(http: HTTPClient, url: String, form: [(String, String)], issuedAt: Date) async throws -> Token {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(form)))
        let response = try await http.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 64 * 1024)
        let answer = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
        guard response.status == .ok, let value = answer["access_token"] as? String, !value.isEmpty else {
            let error = answer["error"].map { "\($0)" }
            throw OAuthError(status: Int(response.status.code), error: error, description: answer["error_description"] as? String)
        }
        let lifetime = (answer["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        return Token(value: value, expiresAt: issuedAt.addingTimeInterval(lifetime))
    }
}
