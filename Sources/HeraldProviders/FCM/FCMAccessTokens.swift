import AsyncHTTPClient
import Foundation
import HeraldCore
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// OAuth 2.0 access tokens for one service account: cached, refreshed five minutes before they
/// expire, one refresh at a time however many sends wait, and dropped when FCM answers 401.
public actor FCMAccessTokens {
    public struct Token: Sendable, Equatable {
        public let value: String
        public let expiresAt: Date
    }

    private let account: ServiceAccount
    private let tokenURL: String
    private let http: HTTPClient
    private let clock: any WallClock
    private var current: Token?
    private var refreshing: Task<Token, any Error>?
    public private(set) var fetches = 0

    public static let refreshMargin: TimeInterval = 5 * 60

    public init(account: ServiceAccount, tokenURL: String, http: HTTPClient, clock: any WallClock = SystemWallClock()) {
        self.account = account
        self.tokenURL = tokenURL
        self.http = http
        self.clock = clock
    }

    public func token() async throws -> Token {
        if let current, current.expiresAt.timeIntervalSince(clock.now()) > Self.refreshMargin { return current }
        if let refreshing { return try await refreshing.value }
        let task = Task { try await self.fetch() }
        refreshing = task
        defer { refreshing = nil }
        let token = try await task.value
        current = token
        return token
    }

    /// FCM refused `token` (401): forget it unless it was already replaced.
    public func invalidate(_ token: Token) {
        if current == token { current = nil }
    }

    private func fetch() async throws -> Token {
        fetches += 1
        let now = clock.now()
        let assertion = try account.assertion(audience: tokenURL, issuedAt: now)
        var request = HTTPClientRequest(url: tokenURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"))
        let response = try await http.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 64 * 1024)
        struct Answer: Decodable {
            var access_token: String?
            var expires_in: Double?
            var error: String?
            var error_description: String?
        }
        let answer = try? JSONDecoder().decode(Answer.self, from: Data(buffer: body))
        guard response.status == .ok, let value = answer?.access_token else {
            throw FCMAuthError(status: Int(response.status.code), error: answer?.error, description: answer?.error_description)
        }
        return Token(value: value, expiresAt: now.addingTimeInterval(answer?.expires_in ?? 3600))
    }
}

/// The token endpoint refused the assertion.
public struct FCMAuthError: Error, Sendable, CustomStringConvertible {
    public let status: Int
    public let error: String?
    public let description_: String?

    init(status: Int, error: String?, description: String?) {
        self.status = status
        self.error = error
        self.description_ = description
    }

    public var description: String { "OAuth \(status) \(error ?? "")\(description_.map { ": " + $0 } ?? "")" }
    /// `invalid_grant`, `invalid_client`, `unauthorized_client`: the credential itself is wrong.
    public var isCredentialProblem: Bool { status == 400 || status == 401 || status == 403 }
}
