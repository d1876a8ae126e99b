import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOPosix
import NIOSSL
import NIOTLS

/// Where a provider listens.
public struct HTTP2Endpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int = 443) {
        self.host = host
        self.port = port
    }

    /// `https://host[:port]`, as the `HERALD_*_URL` overrides give it.
    public init?(url: String) {
        guard let components = URLComponents(string: url), components.scheme == "https", let host = components.host else { return nil }
        self.init(host: host, port: components.port ?? 443)
    }

    public var description: String { "\(host):\(port)" }
}
