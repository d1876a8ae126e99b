import AsyncHTTPClient
import Foundation
import HeraldCore
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A token endpoint refused the credential, or answered something else than a token.
public struct OAuthError: Error, Sendable, CustomStringConvertible {
    public let status: Int
    public let error: String?
    public let errorDescription: String?

    public init(status: Int, error: String?, description: String?) {
        self.status = status
        self.error = error
        self.errorDescription = description
    }

    public var description: String { "OAuth \(status) \(error ?? "")\(errorDescription.map { ": " + $0 } ?? "")" }
    /// `invalid_grant`, `invalid_client`, `unauthorized_client`: the credential itself is wrong.
    public var isCredentialProblem: Bool { status == 400 || status == 401 || status == 403 }

    /// The verdict for every push that waited for this token.
    public static func verdict(for error: any Error, latency: Duration) -> PushResult {
        if let error = error as? OAuthError, error.isCredentialProblem {
            return PushResult(outcome: .credentialBroken, providerStatus: error.status, reason: error.description, latency: latency)
        }
        return PushResult(outcome: .retryLater(after: nil), reason: "OAuth: \(error)", latency: latency)
    }
}
