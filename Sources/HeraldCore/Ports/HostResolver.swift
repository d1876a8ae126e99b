import Foundation
import HeraldModels

/// Resolves a host name to its IP addresses (textual form).
public protocol HostResolver: Sendable {
    func addresses(of host: String) async throws -> [String]
}
